import path from 'node:path';

export const projectRoot = path.resolve(__dirname, '../..');
/** Installed local servers (ignored by git, safe to delete: setup rebuilds it). */
export const devstackDir = path.join(projectRoot, '.devstack');
export const venvDir = path.join(devstackDir, 'venv');
export const temporalCliPath = path.join(venvDir, 'bin', 'temporal');
export const temporalTestServerPath = path.join(venvDir, 'bin', 'temporal-test-server');
export const ferretdbPath = path.join(devstackDir, 'bin', 'ferretdb');
export const ferretdbModuleDir = path.join(projectRoot, 'devstack', 'ferretdb');
export const temporalConfigDir = path.join(projectRoot, 'temporal-config');
/** The Temporal server and its schema tool, built from go.temporal.io/server (`npm run stack:production`). */
export const temporalServerPath = path.join(devstackDir, 'bin', 'temporal-server');
export const temporalSqlToolPath = path.join(devstackDir, 'bin', 'temporal-sql-tool');
