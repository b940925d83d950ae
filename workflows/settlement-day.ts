import { ActivityFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { SettlementActivities } from '../activities/settlement-activities';
import {
  SETTLEMENT_START_ATTEMPTS,
  type SettlementDayInput,
  type SettlementDayProgress,
} from '../src/temporal/settlement-contract';
import { continueOntoCurrentBuild } from './continue-onto-current-build';

const act = proxyActivities<SettlementActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * One merchant's start: retried a few times on its own, then reported as failed so the run goes on.
 * Ten minutes: a large merchant's due-check reads its recent orders.
 */
const startOne = proxyActivities<SettlementActivities>({
  startToCloseTimeout: '10 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: SETTLEMENT_START_ATTEMPTS,
  },
});

/** Merchants per page, and how many of a page start at once. */
export const SETTLEMENT_DAY_PAGE = 200;
export const SETTLEMENT_DAY_CONCURRENCY = 10;
/** A run continues as new past this many events (about 6 a merchant): far below Temporal's 51,200. */
const EVENTS_PER_RUN = 10_000;
const FAILURES_LISTED = 100;

/**
 * The daily settlement run (schedule `settlement:daily`, after the cut-off, in IST): starts one
 * settlement workflow per merchant with anything due (each once, by its id), and again those of
 * its settlements whose workflow failed or was terminated. The bank's settlement file is checked by
 * its own workflow and schedule (workflows/settlement-file.ts), so a bad file never keeps this run
 * open (the schedule skips a day while a run is open).
 *
 * Each merchant's start is an activity of its own, a page
 * of merchants at a time, SETTLEMENT_DAY_CONCURRENCY at once: a merchant that cannot be started
 * is retried alone and listed in the result's `failed`, and the others start. Thousands of
 * merchants continue as new between pages, carrying the progress.
 */
export async function settlementDayWorkflow(input: SettlementDayInput) {
  const day = input.carried
    ? { settlementDate: input.settlementDate!, workingDay: true }
    : await act.settlementRunDate({ settlementDate: input.settlementDate });
  const progress: SettlementDayProgress = input.carried ?? {
    after: null,
    started: 0,
    alreadyStarted: 0,
    failed: [],
    failedCount: 0,
  };
  if (day.workingDay) {
    do {
      const page = await act.settlementMerchantsPage({ after: progress.after, limit: SETTLEMENT_DAY_PAGE });
      await eachAtMost(SETTLEMENT_DAY_CONCURRENCY, page.merchants, async (merchantIdentifier) => {
        try {
          const outcome = await startOne.startMerchantSettlement({ merchantIdentifier, settlementDate: day.settlementDate });
          if (outcome === 'started') progress.started++;
          else if (outcome === 'already_started') progress.alreadyStarted++;
        } catch (e) {
          if (!(e instanceof ActivityFailure)) throw e;
          progress.failedCount++;
          if (progress.failed.length < FAILURES_LISTED)
            progress.failed.push({ merchantIdentifier, reason: e.cause?.message ?? e.message });
        }
      });
      progress.after = page.next;
      const info = workflowInfo();
      if (progress.after && (info.continueAsNewSuggested || info.historyLength >= EVENTS_PER_RUN))
        await continueOntoCurrentBuild<typeof settlementDayWorkflow>({ settlementDate: day.settlementDate, carried: progress });
    } while (progress.after);
  }
  const { after: _walked, ...run } = progress;
  return { settlementDate: day.settlementDate, ...run };
}

/** Runs `fn` on every item, at most `limit` at once, in the items' order (deterministic). */
async function eachAtMost<T>(limit: number, items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
