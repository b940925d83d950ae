import path from 'node:path';
import { ConfigError, loadConfig, productionLike, type Config } from '../config';
import { ferretdbUri } from '../devstack/ferretdb';
import { localSecrets } from '../devstack/local-secrets';

/**
 * The configuration of an entry point: from the environment, with the development master key and
 * operator token from DATA_DIR outside production (the worker, without the operator API, needs no OPS_TOKEN). Exits with the readable message when invalid.
 */
export function configOrExit(env: NodeJS.ProcessEnv = process.env, needsOpsToken = true): Config {
  try {
    const production = productionLike(env.GATEWAY_ENV);
    const generated = production ? {} : localSecrets(path.resolve(env.DATA_DIR || '.data'));
    return loadConfig(env, generated, needsOpsToken);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
}

/** Where the store is: MONGODB_URI, or the local FerretDB that `npm start` runs. */
export const storeUri = (c: Config) => c.store.mongodbUri ?? ferretdbUri(c.devStack.mongodbPort);

/** Where Temporal is: TEMPORAL_ADDRESS, or the local dev server that `npm start` runs. */
export const temporalAddress = (c: Config) => c.temporal.address ?? `127.0.0.1:${c.devStack.temporalPort}`;
