import { createBankActivities, type BankActivityDeps } from './bank-activities';
import { createMandateActivities, type MandateActivityDeps } from './mandate-activities';
import { createPaymentActivities, type PaymentActivityDeps } from './payment-activities';
import { createReconciliationActivities, type ReconciliationActivityDeps } from './reconciliation-activities';
import { createRefundActivities, type RefundActivityDeps } from './refund-activities';
import { createSettlementActivities, type SettlementActivityDeps } from './settlement-activities';
import { createSettlementFileActivities, type SettlementFileActivityDeps } from './settlement-file-activities';
import { createSweepActivities, type SweepActivityDeps } from './sweep-activities';
import { createWebhookActivities, type WebhookActivityDeps } from './webhook-activities';

export type ActivityDeps = PaymentActivityDeps &
  SweepActivityDeps &
  RefundActivityDeps &
  ReconciliationActivityDeps &
  WebhookActivityDeps &
  MandateActivityDeps &
  BankActivityDeps &
  SettlementActivityDeps &
  SettlementFileActivityDeps;

/** Every activity the worker registers, built from its dependencies so tests can pass fakes. */
export function createActivities(deps: ActivityDeps) {
  const webhook = createWebhookActivities(deps);
  return {
    ...createPaymentActivities({ ...deps, deliverWebhookFirstAttempt: webhook.deliverWebhookFirstAttempt }),
    ...createSweepActivities(deps),
    ...createRefundActivities(deps),
    ...createReconciliationActivities(deps),
    ...webhook,
    ...createMandateActivities(deps),
    ...createBankActivities(deps),
    ...createSettlementActivities(deps),
    ...createSettlementFileActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
