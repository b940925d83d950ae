import path from 'node:path';
import { startFerretdb } from '../ferretdb';
import { keepSupervised, supervision, type StackBuild } from './build';
import { ensureStackOperatorTokens, STACK_OPERATOR_TOKENS } from './operator-tokens';
import { ensureDatabase, ensureRole, startPostgresql } from './postgresql';
import type { readEnvFile } from './settings';
import { supervise } from './supervisor';

/**
 * The production stack's store: PostgreSQL (Temporal's databases and FerretDB's) and FerretDB on
 * it, each supervised like the gateway's processes: started again when it exits unexpectedly,
 * PostgreSQL on its own data directory (it recovers from its WAL), FerretDB reconnecting to it.
 */

export async function startStackPostgresql(b: StackBuild): Promise<void> {
  const { ports, secrets } = b;
  keepSupervised(
    b,
    await supervise(
      'postgresql',
      () =>
        startPostgresql({
          port: ports.postgresql,
          dataDir: path.join(b.dataDir, 'postgresql'),
          logDir: b.logDir,
          superuserPassword: secrets.POSTGRES_SUPERUSER_PASSWORD,
        }),
      supervision(b, 'postgresql'),
    ),
  );
  ensureRole(ports.postgresql, secrets.POSTGRES_SUPERUSER_PASSWORD, 'temporal', secrets.POSTGRES_PASSWORD, 'CREATEDB');
  ensureRole(ports.postgresql, secrets.POSTGRES_SUPERUSER_PASSWORD, 'gateway', secrets.STORE_PASSWORD);
  ensureDatabase(ports.postgresql, secrets.POSTGRES_SUPERUSER_PASSWORD, 'ferretdb', 'gateway');
  b.log(`postgresql: 127.0.0.1:${ports.postgresql} (password authentication)`);
}

/** FerretDB on PostgreSQL, with the stack's operator tokens stored. */
export async function startStackStore(b: StackBuild, gatewaySettings: ReturnType<typeof readEnvFile>): Promise<void> {
  const { ports, secrets } = b;
  keepSupervised(
    b,
    await supervise(
      'ferretdb',
      async () =>
        (
          await startFerretdb({
            port: ports.store,
            dataDir: path.join(b.dataDir, 'ferretdb'),
            logDir: b.logDir,
            postgresqlUrl: `postgres://127.0.0.1:${ports.postgresql}/ferretdb`,
          })
        ).process,
      supervision(b, 'ferretdb'),
    ),
  );
  b.log(`store: FerretDB at 127.0.0.1:${ports.store} on PostgreSQL (authentication: PLAIN, checked by PostgreSQL)`);
  await ensureStackOperatorTokens(
    `mongodb://gateway:${secrets.STORE_PASSWORD}@127.0.0.1:${ports.store}/?authMechanism=PLAIN&authSource=%24external`,
    gatewaySettings.MONGODB_DB,
    secrets,
  );
  b.log(`operator tokens: ${STACK_OPERATOR_TOKENS.map((t) => `${t.name} (${t.scopes.join(',')})`).join(', ')}`);
}
