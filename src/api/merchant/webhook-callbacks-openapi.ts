import { jsonSchema } from '../reference/operation';
import {
  lateTxnSchema,
  realtimeTxnSchema,
  settlementProcessedSchema,
  txnDataSchema,
  webhookBodySchema,
} from '../schemas/webhook-payload';

/** The parsed `txnData` and its entries, as named component schemas (the SDK's types take these names). */
export function webhookComponentSchemas(): Record<string, object> {
  return {
    TxnData: jsonSchema(txnDataSchema, 'output'),
    RealtimeTxn: jsonSchema(realtimeTxnSchema, 'output'),
    LateTxn: jsonSchema(lateTxnSchema, 'output'),
    SettlementProcessed: jsonSchema(settlementProcessedSchema, 'output'),
  };
}

/** OpenAPI 3.1 `webhooks`: what the gateway posts to the merchant's webhook URL. */
export function webhookCallbacks(): Record<string, object> {
  const body = { schema: jsonSchema(webhookBodySchema, 'output') };
  const acknowledged = {
    200: {
      description: 'acknowledged: the body, trimmed, is SUCCESS',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
  };
  return {
    transaction: {
      post: {
        summary: 'A transaction result, posted to the merchant webhook URL with ?realtime=true|false',
        description:
          'Form-encoded by default, JSON when the merchant chose it. `txnData` is the JSON text of a TxnData object and `checksum` the HMAC-SHA256 of that exact text with the secret key. Headers: `X-Webhook-Id` and `X-Webhook-Attempt`, and the Standard Webhooks `webhook-id`, `webhook-timestamp` and `webhook-signature` (v1, HMAC-SHA256 of `<id>.<timestamp>.<raw body>` with the webhook signing secret). Answer 2xx with the body SUCCESS; anything else is retried.',
        parameters: [{ name: 'realtime', in: 'query', required: true, schema: { type: 'string', enum: ['true', 'false'] } }],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': body, 'application/json': body },
        },
        responses: acknowledged,
      },
    },
    settlementProcessed: {
      post: {
        summary: 'A settlement paid into your bank account, posted with ?event=settlement.processed (opt-in)',
        description:
          "Sent once per paid settlement to merchants who opted in (`settlementWebhook: true`, or the dashboard's Webhooks settings), through the same delivery as transaction webhooks: the same body format, `checksum`, headers, signatures, retries and delivery log. `txnData` is the JSON text of a SettlementProcessed object; the delivery id (`X-Webhook-Id`) is `settlement-processed:<merchantIdentifier>:<yyyy-MM-dd>`. Settlements that pay nothing (a net carried forward, a payout refused) send none.",
        parameters: [{ name: 'event', in: 'query', required: true, schema: { type: 'string', enum: ['settlement.processed'] } }],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': body, 'application/json': body },
        },
        responses: acknowledged,
      },
    },
    accountChanged: {
      post: {
        summary: 'Your settlement bank account changed, posted with ?event=account.changed (with the settlement webhooks)',
        description:
          'Sent once per change of the settlement bank account to merchants opted in to the settlement webhooks (`settlementWebhook: true`), through the same delivery as transaction webhooks. `txnData` is the JSON text of `{event: "account.changed", merchantIdentifier, changedAt, changedBy, accountLast4, previousAccountLast4, coolingUntil}` (times ISO 8601; `previousAccountLast4` and `coolingUntil` empty for a first account; only last four digits); the delivery id is `account-changed:<merchantIdentifier>:<changedAt>`. A change you did not make: contact support at once, payouts to the new account wait until `coolingUntil`.',
        parameters: [{ name: 'event', in: 'query', required: true, schema: { type: 'string', enum: ['account.changed'] } }],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': body, 'application/json': body },
        },
        responses: acknowledged,
      },
    },
  };
}
