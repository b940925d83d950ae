import { randomBytes } from 'node:crypto';
import type { Transaction } from '../../src/domain/transaction';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import type { PaymentWorkflowResult } from '../../src/temporal/payment-contract';
import type { TestGateway } from './gateway';
import { request, type HttpResult } from './http';

export const newOrderId = (prefix = 'order') => `${prefix}-${randomBytes(5).toString('hex')}`;

/** Pays an order as a sandbox payer would (POST /sandbox/v1/payments). */
export function sandboxPay(gw: TestGateway, body: Record<string, unknown>): Promise<HttpResult> {
  return request(`${gw.baseUrl}/sandbox/v1/payments`, {
    body: { amount: 10_000, productDescription: 'Masala chai', ...body },
  });
}

/** Waits for the order's payment workflow to finish: no polling, the workflow's own result. */
export function paymentFinished(gw: TestGateway, merchantIdentifier: string, orderId: string): Promise<PaymentWorkflowResult> {
  return gw.rt.temporal.workflow.getHandle(paymentWorkflowId(merchantIdentifier, orderId)).result();
}

/** The stored transaction, straight from the store (for "nothing changed" checks). */
export async function storedTransaction(
  gw: TestGateway,
  merchantIdentifier: string,
  orderId: string,
): Promise<Transaction | null> {
  return gw.rt.transactions.findByOrder({ merchantIdentifier, orderId });
}
