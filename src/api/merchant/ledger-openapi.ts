import { LEDGER_STATES, REFUND_IN_FLIGHT } from '../../domain/ledger-state';

import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';
import { bulkResponseSchema, ledgerResponseSchema } from '../schemas/ledger';

const stateTable = [...Object.entries(LEDGER_STATES), ['a refund in flight', REFUND_IN_FLIGHT] as const]
  .map(([name, s]) => `${name}: ${s.status} ${s.state} ${s.stateDescription}`)
  .join('; ');

/** The ledger operation's entry in the API reference (Zaakpay's ledger API and codes). */
export const ledgerReference: OperationReference = {
  summary: "A page of the merchant's transactions initiated in a period",
  description: `Header \`X-API-Key\`. Transactions initiated from startDateTime to endDateTime (IST, both inclusive to the minute; a date alone is the whole day), oldest first, then by txnId: pages stay stable while new transactions arrive. \`status\` SUCCESS selects every successful state (refunded and charged back included). Delayed successes (from bank reconciliation) only with includeDelayedSuccessTxn. Ledger states: ${stateTable}. Amounts in rupees. \`refundDetail\` lists refunds not failed (refundReferenceNumber is the merchantRefId), null when none. responseCode/responseDescription are Zaakpay's outcome codes, null on a PENDING row. Errors carry Zaakpay's ledger codes: 401 code 100 API key missing, 112 API key wrong; 400 code 1026 startDateTime or endDateTime missing, 1027 status missing or invalid, 1028 a date's format (or a date that does not exist), 1029 pageSize or pageNumber invalid, 1030 pageSize over 10000, 1031 start after end, 2001 malformed JSON, 2002 includeDelayedSuccessTxn not a boolean; 503 code 1036 any failure of the service. A page with no record: HTTP 200 \`{success: false, message: {code: "1035", text: "No record found."}}\`.`,
  example: { startDateTime: '2026-11-01', endDateTime: '2026-11-23 23:59', status: 'ALL', pageSize: 1000, pageNumber: 1 },
  responses: { 200: { description: 'one page (streamed)', schema: ledgerResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};

/** The bulk download operation's entry in the API reference. */
export const bulkReference: OperationReference = {
  summary: 'A page of the transactions that succeeded on one IST day',
  description:
    'Header `X-API-Key`; an optional header `checksum`, when sent, must be the HMAC-SHA256 (hex) of the exact body with the secret key (401, code 2011, otherwise). Transactions that succeeded on txnDate (IST), by success time then txnId, with the refunds started on them (not failed) in `refundDetail`, `[]` when there are none. Each record carries `checksum`: the HMAC-SHA256 of its JSON without the checksum field, keys in the order returned. No transaction on that page: `data` is the text "No transaction found". Any invalid request: 400 `{success: false, message: {code: "100", text: "Validation Failed"}}`, the reason in the X-Error-Detail header.',
  example: { txnDate: '2026-11-23', status: 'success', pageSize: 10, pageNumber: 1 },
  responses: { 200: { description: 'records, or the no-transaction text', schema: bulkResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};
