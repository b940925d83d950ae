import { z } from 'zod';
import { AUDIT_ACTIONS } from '../../domain/audit';
import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';

const record = z.object({
  id: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  actor: z.object({ kind: z.enum(['operator', 'staff', 'system']) }).loose(),
  merchantIdentifier: z.string().nullable(),
  at: z.string().describe('ISO 8601 instant'),
  from: z.string().nullable().describe('the client address of the request'),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

/** The audit trail's one read (the trail has no write or delete endpoint). */
export const auditReference: OperationReference = {
  summary: 'The audit trail (operator): who changed what of a merchant, when and from where, newest first',
  description: `Records of actions that affect a merchant's money or access (${AUDIT_ACTIONS.join(', ')}), by operators and by merchants' staff. Records are never changed or removed. \`merchantIdentifier\` narrows to one merchant; the next page passes the last record's \`at\` as \`before\`.`,
  example: {},
  responses: {
    200: {
      description: 'the records',
      schema: z.object({ success: z.literal(true), data: z.object({ records: z.array(record) }) }),
    },
  },
  errors: [400, 401, 503],
  errorEnvelope: successError,
};
