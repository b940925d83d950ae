import type { AudienceModule } from './audience';
import { dashboardModule } from './dashboard';
import { merchantModule } from './merchant';
import { opsModule } from './ops';
import { payerModule } from './payer';
import { platformModule } from './platform';
import { sandboxModule } from './sandbox';

/**
 * Every audience of the HTTP API, in the order app.ts mounts them and openapi.ts lists their paths.
 * The one list of them: a new audience is added here, a new operation in its module's folder.
 */
export const AUDIENCES: readonly AudienceModule[] = [
  platformModule,
  merchantModule,
  payerModule,
  opsModule,
  dashboardModule,
  sandboxModule,
];

// Declared operations are documented on every gateway; the sandbox, off in production, decides that
// in routers() and paths(), so it declares none until the pipeline knows that rule. (Which listener
// mounts a module, operations included, is its `listeners`.)
for (const m of AUDIENCES)
  if (m.operations?.length && m.name === 'sandbox')
    throw new Error(`src/api/${m.name}: declares operations, which would be served on every listener and gateway`);
