import { randomBytes } from 'node:crypto';
import { postCheckedWebhook } from '../outbound/webhook-post';
import type { AddressPolicy } from '../domain/network-address';
import { standardWebhookHeaders } from '../domain/standard-webhooks';
import { isWebhookAcknowledged, webhookPayload } from '../domain/webhook';
import { formatIstDateTimeMillis } from '../domain/ist-time';
import type { Merchant } from '../domain/merchant';
import type { TestWebhookResult } from '../domain/webhook-delivery';
import type { MerchantRepository } from '../store/merchant-repository';

export type { TestWebhookResult };

/**
 * One call to the merchant's webhook URL, signed and shaped exactly as real ones (its format, the
 * checksum with the secret key, the Standard Webhooks headers), carrying an order `TEST-WEBHOOK`;
 * what the endpoint answered. It is not stored as a delivery and does not count for the endpoint's health.
 */
export async function sendTestWebhook(
  deps: { merchants: MerchantRepository; policy: AddressPolicy; timeoutMs: number; now: () => Date },
  merchant: Merchant,
): Promise<TestWebhookResult | null> {
  if (!merchant.webhookUrl) return null;
  const at = deps.now();
  const deliveryId = `test-${randomBytes(8).toString('hex')}`;
  const payload = webhookPayload(merchant.secretKey, merchant.webhookFormat, {
    merchantIdentifier: merchant.merchantIdentifier,
    txns: [
      {
        orderId: 'TEST-WEBHOOK',
        amount: '100',
        responseCode: '100',
        responseDescription: 'Test webhook sent from the merchant dashboard',
        txnDate: formatIstDateTimeMillis(at),
      },
    ],
    refunds: [],
  });
  const secrets = ((await deps.merchants.webhookSigningSecrets(merchant.merchantIdentifier, at)) ?? []).map((s) => s.secret);
  const input = { deliveryId, attempt: 1, url: merchant.webhookUrl, contentType: payload.contentType, body: payload.body };
  const result = await postCheckedWebhook(
    input,
    standardWebhookHeaders(secrets, deliveryId, at, payload.body),
    deps.policy,
    deps.timeoutMs,
  );
  return {
    url: merchant.webhookUrl,
    deliveryId,
    httpStatus: result.status,
    response: result.text === null ? null : Buffer.from(result.text).subarray(0, 512).toString(),
    error: 'error' in result ? result.error : null,
    acknowledged: result.status !== null && isWebhookAcknowledged(result.status, result.text),
  };
}
