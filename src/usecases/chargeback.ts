import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import { decideChargeback, type ChargebackAction, type ChargebackResult } from '../domain/chargeback';
import type { Paise } from '../domain/money';
import type { ChargebackChange } from '../domain/transaction';
import { updateDeliveryId } from '../domain/webhook-update';
import type { OrderRef, TransactionRepository } from '../store/transaction-repository';
import { startWebhookDeliveryWorkflow } from '../temporal/webhook-delivery-client';

export type { ChargebackResult };

interface NoticeDeps {
  transactions: TransactionRepository;
  temporal: Client;
  config: { temporal: Pick<Config['temporal'], 'taskQueue'> };
}

/**
 * Raises or reverts a chargeback: a compare-and-set on the order's version, so it applies once or
 * not at all. The change applied is pushed to the merchant as a non-real-time webhook built from
 * what was written (its delivery workflow outlives the request). The change is written together
 * with its notice (chargebackNotice), which is cleared once the delivery is started: a crash in
 * between leaves the notice for the sweep, or for the next chargeback call on the order, which
 * starts it first so a newer change never overwrites an untold one.
 */
export async function applyChargeback(
  deps: NoticeDeps & { now: () => Date },
  order: OrderRef,
  action: ChargebackAction,
  amountPaise: Paise,
): Promise<ChargebackResult> {
  for (;;) {
    const t = await deps.transactions.findByOrder(order);
    if (!t) return { kind: 'unknownOrder' };
    if (t.chargebackNotice) await startChargebackNotice(deps, t, t.chargebackNotice);
    const now = deps.now();
    const decision = decideChargeback(t, action, amountPaise, now);
    if (!decision.ok) return { kind: 'refused', refusal: decision.refusal };
    const notice: ChargebackChange = {
      kind: 'chargeback',
      orderId: t.orderId,
      action,
      amountPaise: t.amountPaise,
      chargebackAmountPaise: decision.chargeback.amountPaise,
      txnStatus: decision.status,
      at: now.toISOString(),
      // updateIfUnchanged writes only over `t.version` and adds one.
      version: t.version + 1,
    };
    const updated = await deps.transactions.updateIfUnchanged(order, t.version, {
      // adjustedAt: a raise or revert is a settleable adjustment, indexed for the settlement engine in the same write.
      set: {
        status: decision.status,
        chargeback: decision.chargeback,
        updatedAt: now,
        adjustedAt: now,
        chargebackNotice: notice,
        // The change's number, in its own write: its call, and any earlier one still due, are judged by it.
        chargebackVersion: notice.version,
      },
    });
    if (!updated) continue;
    await startChargebackNotice(deps, updated, notice);
    return { kind: 'applied', transaction: updated };
  }
}

/**
 * Starts the webhook delivery of a recorded chargeback change (its id is fixed by the change, so a
 * repeated start is the same delivery) and then clears the order's notice if it is still this one.
 */
export async function startChargebackNotice(deps: NoticeDeps, order: OrderRef, notice: ChargebackChange): Promise<void> {
  const ref = { merchantIdentifier: order.merchantIdentifier, orderId: order.orderId };
  await startWebhookDeliveryWorkflow(
    { temporal: deps.temporal, taskQueue: deps.config.temporal.taskQueue },
    { deliveryId: updateDeliveryId(ref.merchantIdentifier, notice), ...ref, update: notice },
  );
  await deps.transactions.clearChargebackNotice(ref, notice.version);
}
