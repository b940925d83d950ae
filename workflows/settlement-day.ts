import { proxyActivities } from '@temporalio/workflow';
import type { SettlementActivities } from '../activities/settlement-activities';
import type { SettlementDayInput } from '../src/temporal/settlement-contract';

const act = proxyActivities<SettlementActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * The daily settlement run (schedule `settlement:daily`, after the cut-off, in IST): starts one
 * settlement workflow per merchant with anything due (each once, by its id), then reconciles the
 * bank's settlement file of the previous working day, whose payouts are complete by now.
 */
export async function settlementDayWorkflow(input: SettlementDayInput) {
  const run = await act.startDueSettlements(input);
  const previous = await act.previousWorkingDay({ settlementDate: run.settlementDate });
  const reconciled = await act.reconcileSettlementFile({ date: previous });
  return { ...run, reconciled: { date: previous, ...reconciled } };
}
