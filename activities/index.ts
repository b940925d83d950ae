import { createPaymentActivities, type PaymentActivityDeps } from './payment-activities';

export type ActivityDeps = PaymentActivityDeps;

/** Every activity the worker registers, built from its dependencies so tests can pass fakes. */
export function createActivities(deps: ActivityDeps) {
  return { ...createPaymentActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
