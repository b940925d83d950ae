import type { Client } from '@temporalio/client';
import { decideChargeback, type ChargebackAction, type ChargebackDecision } from '../domain/chargeback';
import type { Paise } from '../domain/money';
import type { Transaction } from '../domain/transaction';
import { updateDeliveryId, type RecordedUpdate } from '../domain/webhook-update';
import type { OrderRef, TransactionRepository } from '../store/transaction-repository';
import { startWebhookDeliveryWorkflow } from '../temporal/webhook-delivery-start';

export type ChargebackResult =
  | { kind: 'applied'; transaction: Transaction }
  | { kind: 'unknownOrder' }
  | { kind: 'refused'; refusal: Extract<ChargebackDecision, { ok: false }>['refusal'] };

/**
 * Raises or reverts a chargeback: a compare-and-set on the order's version, so it applies once or
 * not at all. The change applied is pushed to the merchant as a non-real-time webhook built from
 * what was written (its delivery workflow outlives the request).
 */
export async function applyChargeback(
  deps: {
    transactions: TransactionRepository;
    now: () => Date;
    temporal: Client;
    config: { TEMPORAL_TASK_QUEUE: string };
  },
  order: OrderRef,
  action: ChargebackAction,
  amountPaise: Paise,
): Promise<ChargebackResult> {
  for (;;) {
    const t = await deps.transactions.findByOrder(order);
    if (!t) return { kind: 'unknownOrder' };
    const now = deps.now();
    const decision = decideChargeback(t, action, amountPaise, now);
    if (!decision.ok) return { kind: 'refused', refusal: decision.refusal };
    const updated = await deps.transactions.updateIfUnchanged(order, t.version, {
      set: { status: decision.status, chargeback: decision.chargeback, updatedAt: now },
    });
    if (!updated) continue;
    const update: RecordedUpdate = {
      kind: 'chargeback',
      orderId: updated.orderId,
      action,
      amountPaise: updated.amountPaise,
      chargebackAmountPaise: decision.chargeback.amountPaise,
      txnStatus: updated.status,
      at: now.toISOString(),
      version: updated.version,
    };
    await startWebhookDeliveryWorkflow(
      { temporal: deps.temporal, taskQueue: deps.config.TEMPORAL_TASK_QUEUE },
      { deliveryId: updateDeliveryId(order.merchantIdentifier, update), ...order, update },
    );
    return { kind: 'applied', transaction: updated };
  }
}
