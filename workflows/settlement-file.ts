import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { SettlementFileActivities } from '../activities/settlement-file-activities';
import { SETTLEMENT_FILE_ATTEMPTS, SETTLEMENT_FILE_MISSING, type SettlementFileInput } from '../src/temporal/settlement-contract';

const act = proxyActivities<SettlementFileActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** The comparison itself: a bank away or a file that does not parse is retried a bounded number of times (about an hour). */
const check = proxyActivities<SettlementFileActivities>({
  startToCloseTimeout: '10 minutes',
  retry: {
    initialInterval: '30 seconds',
    backoffCoefficient: 2,
    maximumInterval: '15 minutes',
    maximumAttempts: SETTLEMENT_FILE_ATTEMPTS,
  },
});

/**
 * The daily check of the bank's settlement file (schedule `settlement-file:daily`), apart from the
 * daily settlement run so a bad file never holds up merchants' settlements: compares the file of a
 * payout date with the settlements paid that date and records the differences. When the file
 * cannot be read or compared after its attempts, the failure is recorded (needs attention lists
 * it: `file_missing` when the bank kept answering that it has no file of that date) and the
 * workflow completes; the next day's run checks its own date.
 */
export async function settlementFileWorkflow(input: SettlementFileInput) {
  const date = await act.settlementFileDate(input);
  try {
    const result = await check.reconcileSettlementFile({ date });
    await act.recordSettlementFileCheck({ date, ok: true, ...result });
    return { date, ...result };
  } catch (e) {
    if (!(e instanceof ActivityFailure)) throw e;
    const reason = e.cause?.message ?? e.message;
    const missing = e.cause instanceof ApplicationFailure && e.cause.type === SETTLEMENT_FILE_MISSING;
    await act.recordSettlementFileCheck({ date, ok: false, reason, ...(missing ? { missing } : {}) });
    return { date, failed: reason };
  }
}
