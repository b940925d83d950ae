import { createPaymentActivities, type PaymentActivityDeps } from './payment-activities';
import { createSweepActivities, type SweepActivityDeps } from './sweep-activities';

export type ActivityDeps = PaymentActivityDeps & SweepActivityDeps;

/** Every activity the worker registers, built from its dependencies so tests can pass fakes. */
export function createActivities(deps: ActivityDeps) {
  return { ...createPaymentActivities(deps), ...createSweepActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
