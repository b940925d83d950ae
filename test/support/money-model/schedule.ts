import { terminateWhenIdle } from './terminate-idle';
import { istDate } from '../../../src/domain/ist-time';
import { addDays, isWorkingDay } from '../../../src/domain/settlement-calendar';
import { settlementCalendar } from '../../../src/config-settlements';
import { SETTLEMENT_DAY_WORKFLOW_TYPE, settlementWorkflowId } from '../../../src/temporal/settlement-contract';
import { engine, finishSettlements, latestDueDate } from './settle';
import type { World } from './world';

/**
 * The `settlement:daily` schedule as the model plays it (the time-skipping server has no
 * schedules): on each working day, after SETTLEMENT_HOUR_IST, each merchant's start exactly as the
 * daily run makes it (its per-merchant activity: started when anything is due), for the sequence's
 * merchant and its sub-merchants. Like the schedule (overlap SKIP, src/temporal/schedules.ts), no
 * day runs while an earlier daily run is still open.
 */

const merchantsOf = (w: World) => [w.merchant.merchantIdentifier, ...w.sellers.map((s) => s.merchantIdentifier)];

/** Every working date from the sequence's first to the latest due, each merchant's start, each settlement let finish. */
export async function catchUpSchedule(w: World): Promise<string> {
  const cal = settlementCalendar(w.stack.gw.rt.config.settlements);
  const last = latestDueDate(w);
  const said: string[] = [];
  for (let d = istDate(w.startedAt); d <= last; d = addDays(d, 1)) {
    if (!isWorkingDay(cal, d)) continue;
    if (w.openDailyRun) {
      said.push(`${d} skipped (daily run ${w.openDailyRun.id} still open)`);
      continue;
    }
    for (const m of merchantsOf(w)) {
      const outcome = await engine(w.stack).startMerchantSettlement({ merchantIdentifier: m, settlementDate: d });
      const id = settlementWorkflowId(m, d);
      if (outcome !== 'nothing_due' && !w.settlements.includes(id)) w.settlements.push(id);
      if (outcome !== 'nothing_due') said.push(`${id} ${outcome}`);
    }
    await finishSettlements(w);
  }
  return said.join('; ') || 'nothing due';
}

const dailyRunStatus = async (w: World, id: string) =>
  (await w.stack.gw.rt.temporal.workflow.getHandle(id).describe()).status.name;

/** The bank's settlement file as the daily run meets it: its own, spoiled, or absent. */
export const FILE_FORMS = ['ok', 'extraField', 'missing', 'unavailable'] as const;
export type FileForm = (typeof FILE_FORMS)[number];

/**
 * The daily run of the latest due date, as the schedule starts it (its real workflow: every
 * merchant's start, then the bank's settlement file of the previous working day), meeting the
 * file in `form` for as long as the run asks. One still open after a few seconds is remembered
 * (the schedule skips while it runs), ended, and reported at the end.
 */
export async function dailyRun(w: World, form: FileForm): Promise<string> {
  const rt = w.stack.gw.rt;
  const date = latestDueDate(w);
  const cal = settlementCalendar(rt.config.settlements);
  let fileDate = addDays(date, -1);
  while (!isWorkingDay(cal, fileDate)) fileDate = addDays(fileDate, -1);
  const rule =
    form === 'ok'
      ? undefined
      : w.stack.bank.faults.add({
          match: { operation: 'settlementFile', id: fileDate },
          fault:
            form === 'unavailable' ? { kind: 'error', status: 503, afterCommit: false } : { kind: 'badSettlementFile', form },
        });
  const id = `settlement:daily-model-${w.merchant.merchantIdentifier}-${date}`;
  try {
    await rt.temporal.workflow.start(SETTLEMENT_DAY_WORKFLOW_TYPE, {
      workflowId: id,
      taskQueue: rt.config.temporal.taskQueue,
      args: [{ settlementDate: date }],
    });
  } catch {
    return `${id} exists`;
  }
  // The daily run does nothing that waits on time: one still running after a few seconds is
  // retrying a step. It is recorded as open (the schedule skips while it runs) and ended, so that
  // its retries hold no later time skip.
  // A step the worker-crash command killed is retried after 1, 2, 4, 8 s, and the steps after it
  // start late (four crashes spend about six seconds): waited for, not ended. Only a step retrying a
  // failure of its own ends the wait early.
  let status = 'RUNNING';
  const started = Date.now();
  while (status === 'RUNNING' && Date.now() - started < 40_000) {
    await new Promise((r) => setTimeout(r, 150));
    status = await dailyRunStatus(w, id);
    if (status === 'RUNNING' && Date.now() - started > 6000 && (await retriesAFailureOfItsOwn(w, id))) break;
  }
  if (status === 'RUNNING') {
    const handle = rt.temporal.workflow.getHandle(id);
    const pending = (await handle.describe()).raw.pendingActivities?.[0];
    w.openDailyRun = {
      id,
      why: `${pending?.activityType?.name ?? 'no activity'} attempt ${pending?.attempt ?? '?'}: ${pending?.lastFailure?.message ?? ''}`,
    };
    await terminateWhenIdle(handle, 'the money model: the daily run retries a step (recorded as open)');
  }
  if (rule) w.stack.bank.faults.remove(rule.id);
  for (const m of merchantsOf(w)) {
    const s = settlementWorkflowId(m, date);
    if (w.settlements.includes(s)) continue;
    const exists = await rt.temporal.workflow
      .getHandle(s)
      .describe()
      .then(() => true)
      .catch(() => false);
    if (exists) w.settlements.push(s);
  }
  return `${id} (file of ${fileDate} ${form}) → ${status}`;
}

/**
 * (9) The daily run ended: one still open (retrying a step for ever) makes the schedule skip
 * every later day, every merchant's settlements with it.
 */
export function dailyRunEnded(w: World): string[] {
  if (!w.openDailyRun) return [];
  return [
    `(9) daily run ${w.openDailyRun.id} does not end: ${w.openDailyRun.why}; the schedule skips every later day while it runs`,
  ];
}

/**
 * Whether one of the daily run's pending steps is retrying a failure that the worker-crash command
 * did not cause. A step on its first attempt, or retrying a crash, is still making progress.
 */
async function retriesAFailureOfItsOwn(w: World, id: string): Promise<boolean> {
  const d = await w.stack.gw.rt.temporal.workflow
    .getHandle(id)
    .describe()
    .catch(() => undefined);
  return (d?.raw.pendingActivities ?? []).some(
    (a) => a.lastFailure != null && !/\(money model\)/.test(a.lastFailure.message ?? ''),
  );
}
