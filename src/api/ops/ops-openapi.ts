import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';
import { EXAMPLE_MERCHANT, pathParameter } from '../reference/examples';
import { chargebackResponseSchema } from '../schemas/chargebacks';
import { codecPayloadsSchema } from '../schemas/codec';
import { merchantSettingsResponseSchema } from '../schemas/ops';
import { reconciliationFileSchema, reconciliationReportSchema, reconciliationStartedSchema } from '../schemas/reconciliations';
import { invitationResponseSchema } from '../schemas/dashboard';

const merchantIdentifierParam = {
  ...pathParameter('merchantIdentifier'),
  schema: { type: 'string', pattern: '^[A-Za-z0-9]{6,64}$' },
};

/** Temporal's codec server: encode or decode payloads. */
export const codecReference = (direction: 'encode' | 'decode'): OperationReference => ({
  summary: `Temporal codec server: ${direction} payloads (operator)`,
  description:
    direction === 'decode'
      ? "Temporal's codec-server protocol, for Temporal UI (TEMPORAL_CODEC_ENDPOINT=<base>/ops/v1/codec) and `temporal --codec-endpoint <base>/ops/v1/codec --codec-auth 'Bearer <OPS_TOKEN>'`. Each payload whose metadata encoding is binary/encrypted is decrypted (AES-256-GCM) with the key its encryption-key-id names: MASTER_KEY's payload-codec key or one of PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS'; other payloads come back unchanged. Browsers on CODEC_CORS_ORIGINS get their CORS preflight (OPTIONS, answered 204 before the token is checked) and Access-Control-Allow-Origin; X-Namespace is accepted and ignored (one key for all namespaces). Bad JSON, a field not base64, an unknown key id or a tampered payload: 400 (2001, 2002), nothing decoded."
      : "Temporal's codec-server protocol: each payload is encrypted (AES-256-GCM) under MASTER_KEY's payload-codec key, metadata encoding binary/encrypted and encryption-key-id; what Temporal UI and the CLI send when an operator starts or signals a workflow with input. Same CORS and errors as decode.",
  // A plain JSON payload ("hello"): encode encrypts it; decode gives back what is not encrypted as it is.
  example: { payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'ImhlbGxvIg==' }] },
  responses: { 200: { description: `the payloads ${direction}d, in order`, schema: codecPayloadsSchema } },
  errors: [400, 401, 413, 415],
  errorEnvelope: successError,
});

/** Raising or reverting a chargeback. */
export const chargebackReference: OperationReference = {
  summary: 'Raise or revert a chargeback on an order (operator)',
  description:
    'raise: a Success order becomes Chargeback (6) for its whole amount or Partial Chargeback (8) for less. revert: Chargeback becomes Chargeback Reverted (5), Partial Chargeback becomes Partial Chargeback Reverted (7); the amount must be the one raised. Refused with HTTP 200 and `success: false`, changing nothing: 2020 unknown order, 2033 not allowed in the order state (refunded orders included), 2034 amount above the order amount, 2035 revert amount differs.',
  example: {
    merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier,
    orderId: 'order-1001',
    amount: 4000,
    action: 'raise',
  },
  responses: { 200: { description: 'recorded, or refused with a code', schema: chargebackResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};

/** Applying a reconciliation file. */
export const reconciliationFileReference: OperationReference = {
  summary: 'Apply a bank reconciliation file (operator)',
  description:
    'Only a Pending transaction, or a Failure marked by the service, becomes Success (a delayed success; with auto-refund on, a full refund starts at once). A line that disagrees with a final bank answer, names an unknown txnId or another amount, or cannot be read is rejected with its reason; the others still apply; the same file twice changes nothing the second time. Up to RECONCILIATION_MAX_BYTES. A header other than txnId,bankRefNum,status,amount refuses the file (400).',
  request: reconciliationFileSchema,
  example: 'txnId,bankRefNum,status,amount\nT2611230001,BRN88127,SUCCESS,10000\n',
  responses: { 202: { description: 'accepted; read the report by its id', schema: reconciliationStartedSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};

/** A reconciliation's report. */
export const reconciliationReportReference: OperationReference = {
  summary: 'The report of a reconciliation file (operator)',
  description: 'state running until every batch is applied, then done with the counts. Unknown id: 404, code 2043.',
  example: {},
  responses: { 200: { description: 'the report', schema: reconciliationReportSchema } },
  errors: [401, 404, 503],
  errorEnvelope: successError,
  parameters: [pathParameter('reconciliationId')],
};

/** A merchant's settings changed. */
export const merchantSettingsReference: OperationReference = {
  summary:
    "Change a merchant's webhook address, webhook body format, auto-refund, settlement webhook or default return URL (operator)",
  description:
    'Only the fields sent change; `webhookUrl: null` removes the address, `defaultReturnUrl: null` the default return URL (where a hosted checkout sends the payer back when its request names no returnUrl; without either the checkout is refused with 182). `settlementWebhook: true` opts the merchant in to the `settlement.processed` webhook (off by default). Every API replica reads the change at its next request. Unknown merchant: 404, code 2042.',
  example: { webhookUrl: 'https://meera.example/zaakpay/webhooks', webhookFormat: 'json', autoRefund: true },
  responses: { 200: { description: 'the settings as they now stand', schema: merchantSettingsResponseSchema } },
  errors: [400, 401, 404, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [merchantIdentifierParam],
};

/** An invitation to a merchant's dashboard. */
export const invitationReference: OperationReference = {
  summary: "Invite a user to the merchant's dashboard (operator): a one-time link",
  description:
    "How a merchant's first owner gets in (owners then invite others from the dashboard). An owner invitation to a merchant that has an owner, or an owner invitation still open, takes the break-glass OPS_TOKEN (otherwise 403, code 2019): another owner would change the settlement account with their own password. No mail is sent: hand the link on. It works once and expires after DASHBOARD_INVITATION_HOURS; only its hash is stored. An email that has a dashboard account already: 400, code 2002. Unknown merchant: 404, code 2042.",
  example: { email: 'owner@meera.example', role: 'owner' },
  responses: { 201: { description: 'the invitation link', schema: invitationResponseSchema } },
  errors: [400, 401, 404, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [merchantIdentifierParam],
};
