import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dashboardRoleTable } from '../../domain/dashboard-roles';

export const DASHBOARD_DOC = path.resolve(__dirname, '..', '..', '..', 'docs', 'merchants', 'dashboard.md');

const BEGIN = '<!-- role table: generated from src/domain/dashboard-roles.ts by `npm run -s docs:dashboard` -->';
const END = '<!-- end of the generated role table -->';

/** The dashboard's documentation with its role table rendered from the code's permission table. */
export function withRoleTable(doc: string): string {
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DASHBOARD_DOC} has no role table markers`);
  return `${doc.slice(0, from)}${BEGIN}\n\n${dashboardRoleTable()}\n\n${doc.slice(to)}`;
}

if (require.main === module) {
  writeFileSync(DASHBOARD_DOC, withRoleTable(readFileSync(DASHBOARD_DOC, 'utf8')));
  console.log(`wrote ${path.relative(process.cwd(), DASHBOARD_DOC)}`);
}
