import { z } from 'zod';
import { ApiError } from '../../domain/api-errors';
import { ReconciliationFileError } from '../../domain/reconciliation';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation, HttpAnswer } from '../operation';
import { recordByOperator } from './audit-actor';
import { reconciliationFileReference, reconciliationReportReference } from './ops-openapi';

/**
 * POST /ops/v1/reconciliations: a bank reconciliation file (operator), up to RECONCILIATION_MAX_BYTES;
 * its header and lines are read by the use case (a file it cannot read is a 400), its report by id.
 */
export const reconciliationOperation = defineOperation({
  method: 'post',
  path: '/ops/v1/reconciliations',
  envelope: 'success',
  auth: operatorToken('money'),
  body: { contentType: 'text/csv', schema: z.string(), maxBytes: 'reconciliationMaxBytes' },
  reference: reconciliationFileReference,
  async handle(request, deps) {
    const reconciliationId = await deps.useCases.ops.startReconciliation(request.body).catch((e: unknown) => {
      throw e instanceof ReconciliationFileError ? new ApiError('validationFailed', e.message) : e;
    });
    deps.logger.info({ reconciliationId }, 'reconciliation started');
    // A file names transactions of any merchant, by txnId: the record is the gateway's, its report says whose.
    await recordByOperator(deps, request, 'reconciliation.applied', null, { reconciliationId });
    return new HttpAnswer({ success: true, data: { reconciliationId } }, { status: 202 });
  },
});

/** GET /ops/v1/reconciliations/:reconciliationId: a reconciliation file's report. */
export const reconciliationReportOperation = defineOperation({
  method: 'get',
  path: '/ops/v1/reconciliations/:reconciliationId',
  envelope: 'success',
  auth: operatorToken('money'),
  body: { contentType: 'none' },
  reference: reconciliationReportReference,
  async handle({ params }, deps) {
    const report = await deps.useCases.ops.reconciliationReport(params.reconciliationId);
    if (!report) throw new ApiError('reconciliationNotFound');
    return { success: true, data: report };
  },
});
