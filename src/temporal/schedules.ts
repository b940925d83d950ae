import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleDescription } from '@temporalio/client';
import type { Config } from '../config';
import { KindKey } from './search-attributes';
import { PENDING_PAYMENTS_SWEEP_WORKFLOW_TYPE, type PendingPaymentsSweepWorkflow, type SweepInput } from './sweep-contract';
import {
  SETTLEMENT_DAY_WORKFLOW_TYPE,
  SETTLEMENT_FILE_SCHEDULE_ID,
  SETTLEMENT_FILE_WORKFLOW_TYPE,
  SETTLEMENT_SCHEDULE_ID,
  type SettlementDayInput,
  type SettlementDayWorkflow,
  type SettlementFileInput,
  type SettlementFileWorkflow,
} from './settlement-contract';

export const PENDING_SWEEP_SCHEDULE_ID = 'sweep:pending-payments';

/** How often the sweep runs and how old a Pending order must be before it is swept. */
export interface PendingSweepSettings {
  intervalSeconds: number;
  ageSeconds: number;
}

/** The sweep's settings from configuration (PENDING_SWEEP_INTERVAL_SECONDS, PENDING_SWEEP_AGE_SECONDS). */
export const pendingSweepSettings = (
  payments: Pick<Config['payments'], 'pendingSweepIntervalSeconds' | 'pendingSweepAgeSeconds'>,
) => ({
  intervalSeconds: payments.pendingSweepIntervalSeconds,
  ageSeconds: payments.pendingSweepAgeSeconds,
});

/** The configuration's defaults: every 5 minutes, orders Pending for over a minute. */
export const DEFAULT_PENDING_SWEEP: PendingSweepSettings = { intervalSeconds: 300, ageSeconds: 60 };

/** The sweep workflow's input: what is due for over `ageSeconds`, read 500 at a time (DEFAULT_SWEEP_PAGES pages per run). */
export const pendingSweepInput = (ageSeconds: number): SweepInput => ({ olderThanMs: ageSeconds * 1000, limit: 500 });

/**
 * Creates the worker's schedules, or brings an existing one in line with the configuration (every
 * worker replica may call this; a changed interval, age or task queue takes effect on restart).
 */
export async function ensureSchedules(
  client: Client,
  taskQueue: string,
  sweep: PendingSweepSettings = DEFAULT_PENDING_SWEEP,
): Promise<void> {
  const spec = { intervals: [{ every: sweep.intervalSeconds * 1000 }] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: PENDING_PAYMENTS_SWEEP_WORKFLOW_TYPE,
    taskQueue,
    args: [pendingSweepInput(sweep.ageSeconds)] as [SweepInput],
    typedSearchAttributes: [{ key: KindKey, value: 'sweep' }],
  };
  try {
    await client.schedule.create<PendingPaymentsSweepWorkflow>({
      scheduleId: PENDING_SWEEP_SCHEDULE_ID,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
      memo: { purpose: 'start the payment workflow of any order left Pending without one' },
    });
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
    const handle = client.schedule.getHandle(PENDING_SWEEP_SCHEDULE_ID);
    if (isUpToDate(await handle.describe(), spec.intervals[0].every, action)) return;
    await handle.update<PendingPaymentsSweepWorkflow>((previous) => ({ ...previous, spec, action }));
  }
}

function isUpToDate(
  d: ScheduleDescription,
  everyMs: number,
  action: { workflowType: string; taskQueue: string; args: unknown[] },
): boolean {
  const intervals = d.spec.intervals ?? [];
  return (
    intervals.length === 1 &&
    intervals[0].every === everyMs &&
    (d.spec.calendars ?? []).length === 0 &&
    d.action.workflowType === action.workflowType &&
    d.action.taskQueue === action.taskQueue &&
    JSON.stringify(d.action.args) === JSON.stringify(action.args)
  );
}

/**
 * The worker's schedules from configuration. The time-skipping test server has no schedules: there
 * the sweep does not run (a time-skipping run is a tester's, not one that must heal after crashes).
 */
export async function ensureWorkerSchedules(
  rt: { config: Config; temporal: Client },
  say: (line: string) => void,
): Promise<void> {
  if (rt.config.temporal.timeSkipping) {
    say(`no ${PENDING_SWEEP_SCHEDULE_ID} schedule: the time-skipping test server has no schedules`);
    return;
  }
  await ensureSchedules(rt.temporal, rt.config.temporal.taskQueue, pendingSweepSettings(rt.config.payments));
  await ensureSettlementSchedule(rt.temporal, rt.config.temporal.taskQueue, rt.config.settlements.hourIst);
  await ensureSettlementFileSchedule(rt.temporal, rt.config.temporal.taskQueue, rt.config.settlements.fileHourIst);
}

/**
 * `settlement:daily`: every day at `hourIst` (IST, after the previous day's cut-off at midnight)
 * the settlement-day workflow starts the day's settlements (and re-starts those whose workflow
 * failed or was terminated); on a day that is not a working day it starts none. Each settlement it
 * starts is idempotent by its own id, so a catch-up run starts nothing twice.
 */
export function ensureSettlementSchedule(client: Client, taskQueue: string, hourIst: number): Promise<void> {
  return ensureDailySchedule(client, {
    scheduleId: SETTLEMENT_SCHEDULE_ID,
    workflowType: SETTLEMENT_DAY_WORKFLOW_TYPE,
    taskQueue,
    hourIst,
    purpose: "start each merchant's settlement of the day, and re-start those whose workflow failed or was terminated",
  });
}

/**
 * `settlement-file:daily`: every day at `hourIst` (IST) the settlement-file workflow checks the
 * bank's settlement file of the day before (weekends and holidays too: a payout may be paid late).
 * Apart from `settlement:daily`, so a file that cannot be read never stops merchants' settlements.
 */
export function ensureSettlementFileSchedule(client: Client, taskQueue: string, hourIst: number): Promise<void> {
  return ensureDailySchedule(client, {
    scheduleId: SETTLEMENT_FILE_SCHEDULE_ID,
    workflowType: SETTLEMENT_FILE_WORKFLOW_TYPE,
    taskQueue,
    hourIst,
    purpose: "check the bank's settlement file of the day before against the settlements paid that day",
  });
}

/** Both daily workflows take an input whose fields are optional: the schedules start them with `{}`. */
type DailyWorkflow = SettlementDayWorkflow & SettlementFileWorkflow;

/** Creates a schedule starting `workflowType` every day at `hourIst` IST with `{}`, or brings it in line (hour, task queue). */
async function ensureDailySchedule(
  client: Client,
  o: { scheduleId: string; workflowType: string; taskQueue: string; hourIst: number; purpose: string },
): Promise<void> {
  const spec = { calendars: [{ hour: o.hourIst, minute: 0 }], timezone: 'Asia/Kolkata' };
  const args: [SettlementDayInput & SettlementFileInput] = [{}];
  const action = { type: 'startWorkflow' as const, workflowType: o.workflowType, taskQueue: o.taskQueue, args };
  try {
    await client.schedule.create<DailyWorkflow>({
      scheduleId: o.scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
      memo: { purpose: o.purpose },
    });
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
    const handle = client.schedule.getHandle(o.scheduleId);
    const d = await handle.describe();
    const hour = d.spec.calendars?.[0]?.hour;
    const same = Array.isArray(hour) && hour.length === 1 && (hour[0] as { start?: number }).start === o.hourIst;
    if (same && d.action.taskQueue === o.taskQueue) return;
    await handle.update<DailyWorkflow>((previous) => ({ ...previous, spec, action }));
  }
}
