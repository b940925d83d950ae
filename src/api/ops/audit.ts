import { operatorToken } from '../middleware/operator-auth';
import { defineOperation } from '../operation';
import { auditQuerySchema } from '../schemas/audit';
import { auditReference } from './audit-openapi';

/** GET /ops/v1/audit: the audit trail, read-only (docs/operators/audit.md): nothing in the API changes or removes a record. */
export const auditOperation = defineOperation({
  method: 'get',
  path: '/ops/v1/audit',
  envelope: 'success',
  auth: operatorToken('read'),
  body: { contentType: 'none' },
  query: auditQuerySchema,
  reference: auditReference,
  async handle({ query: q }, deps) {
    const records = await deps.useCases.ops.listAudit({
      ...(q.merchantIdentifier ? { merchantIdentifier: q.merchantIdentifier } : {}),
      ...(q.before ? { before: new Date(q.before) } : {}),
      limit: q.limit,
    });
    return { success: true, data: { records } };
  },
});
