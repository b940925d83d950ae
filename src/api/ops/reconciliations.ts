import Router from '@koa/router';
import { ApiError } from '../../domain/api-errors';
import { ReconciliationFileError } from '../../domain/reconciliation';
import { reconciliationReport, startReconciliation } from '../../usecases/reconcile';
import { auditTrail } from '../../usecases/audit-trail';
import type { ApiDeps } from '../deps';
import { operatorAuth } from '../middleware/operator-auth';
import { operatorActor } from './audit-actor';
import { readRawBody } from '../middleware/body';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bank reconciliation files (operator): upload one, then read its report. */
export function reconciliationRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1' });
  router.use(operatorAuth(deps, 'money'));

  const trail = auditTrail(deps.store.db, deps.now);

  router.post('/reconciliations', async (ctx) => {
    const raw = await readRawBody(ctx, 'text/csv', deps.config.RECONCILIATION_MAX_BYTES);
    let text: string;
    try {
      text = strictUtf8.decode(raw);
    } catch {
      throw new ApiError('malformedBody', 'the file is not valid UTF-8');
    }
    try {
      const reconciliationId = await startReconciliation(
        {
          reconciliations: deps.reconciliations,
          temporal: deps.temporal,
          taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
          now: deps.now,
        },
        text,
      );
      deps.logger.info({ reconciliationId }, 'reconciliation started');
      // A file names transactions of any merchant, by txnId: the record is the gateway's, its report says whose.
      await trail.record('reconciliation.applied', operatorActor(ctx), {
        merchantIdentifier: null,
        from: ctx.ip || null,
        detail: { reconciliationId },
      });
      ctx.status = 202;
      ctx.body = { success: true, data: { reconciliationId } };
    } catch (e) {
      if (e instanceof ReconciliationFileError) throw new ApiError('validationFailed', e.message);
      throw e;
    }
  });

  router.get('/reconciliations/:id', async (ctx) => {
    const report = await reconciliationReport(deps, ctx.params.id);
    if (!report) throw new ApiError('reconciliationNotFound');
    ctx.body = { success: true, data: report };
  });
  return router;
}
