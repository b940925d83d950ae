import Router from '@koa/router';
import { auditTrail } from '../../usecases/audit-trail';
import type { ApiDeps } from '../deps';
import { operatorAuth } from '../middleware/operator-auth';
import { validate } from '../middleware/body';
import { auditQuerySchema } from '../schemas/audit';

/** The audit trail, read-only (docs/operators/audit.md): nothing in the API changes or removes a record. */
export function opsAuditRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1' });
  router.use(operatorAuth(deps, 'read'));
  const trail = auditTrail(deps.store.db, deps.now);
  router.get('/audit', async (ctx) => {
    const q = validate(auditQuerySchema, ctx.query);
    const records = await trail.list({
      ...(q.merchantIdentifier ? { merchantIdentifier: q.merchantIdentifier } : {}),
      ...(q.before ? { before: new Date(q.before) } : {}),
      limit: q.limit,
    });
    ctx.body = { success: true, data: { records } };
  });
  return router;
}
