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

// Declared operations are documented on every gateway unless their onlyWhere says otherwise (the
// sandbox's are all switched: it is off in production). Which listener mounts a module, operations
// included, is its `listeners`.
for (const m of AUDIENCES)
  if (m.name === 'sandbox' && m.operations?.some((op) => op.onlyWhere === undefined))
    throw new Error(`src/api/${m.name}: declares an operation without onlyWhere, which would be served on every gateway`);
