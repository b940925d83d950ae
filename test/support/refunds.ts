import { hmacSha256Hex } from '../../src/domain/checksum';
import { refundWorkflowId } from '../../src/temporal/workflow-ids';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import type { RefundRecorded } from '../../src/temporal/refund-contract';
import type { TestGateway } from './gateway';
import { request, type HttpResult } from './http';

/** POST /updateTxn as a merchant sends it: form fields `data` and its checksum. */
export function updateTxn(
  gw: TestGateway,
  merchant: MerchantCredentials,
  data: Record<string, unknown> | string,
  checksum?: string | null,
): Promise<HttpResult> {
  const text =
    typeof data === 'string' ? data : JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, mode: '0', ...data });
  const sum = checksum === undefined ? hmacSha256Hex(merchant.secretKey, text) : checksum;
  const form = new URLSearchParams({ data: text, ...(sum === null ? {} : { checksum: sum }) });
  return request(`${gw.baseUrl}/updateTxn`, {
    body: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

export function refund(
  gw: TestGateway,
  merchant: MerchantCredentials,
  r: { orderId: string; updateDesired?: string; amount?: string; merchantRefId?: string; updateReason?: string },
): Promise<HttpResult> {
  return updateTxn(gw, merchant, {
    orderDetail: { orderId: r.orderId, ...(r.amount !== undefined ? { amount: r.amount } : {}) },
    updateDesired: r.updateDesired ?? '14',
    updateReason: r.updateReason ?? 'customer request',
    ...(r.merchantRefId !== undefined ? { merchantRefId: r.merchantRefId } : {}),
  });
}

export function refundFinished(
  gw: TestGateway,
  merchantIdentifier: string,
  orderId: string,
  merchantRefId: string,
): Promise<RefundRecorded> {
  return gw.rt.temporal.workflow.getHandle(refundWorkflowId(merchantIdentifier, orderId, merchantRefId)).result();
}
