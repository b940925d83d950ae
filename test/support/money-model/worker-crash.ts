import type { ActivityExecuteInput, ActivityInterceptorsFactory } from '@temporalio/worker';

/**
 * The money model's worker crash, as its activities see it: the next activity runs die, half before
 * doing their work and half after it (the store written, the bank called) but before reporting it,
 * so Temporal retries work that may already be done, as it does when a worker is killed mid-activity.
 *
 * What it leaves out: the workflow cache. A killed worker's workflows replay from their histories on
 * the next worker; on Temporal's time-skipping test server a new worker never receives the tasks the
 * old one's sticky queue holds (the server implements neither ResetStickyTaskQueue nor the sticky
 * schedule-to-start timeout), so a real kill and restart would stop time for good. Replay is proven
 * by the workflow replay tests instead. Local activities (webhook attempts) are not crashed: their
 * retries are the workflow's own, tested with the webhook workflow.
 */
/**
 * At most this many attempts of one activity die. Retry waits on the time-skipping test server pass
 * in real time (1, 2, 4, 8 s ...) and a skip waits 30 s for busy workflows: seven crashes spent on
 * one activity (seed 1482023295) held a settlement past every skip. Two in a row already prove a
 * retry after work that was done; more only make the same story slower.
 */
const CRASHED_ATTEMPTS_PER_ACTIVITY = 2;

export class WorkerCrash {
  private armed = 0;
  private crashes = 0;
  /** The activity runs that died since the sequence started (its story prints them). */
  readonly hits: string[] = [];
  /** The next `activities` activity runs die. */
  arm(activities: number): void {
    this.armed += activities;
  }
  /** Nothing armed any longer (a new sequence starts clean). */
  disarm(): void {
    this.armed = 0;
    this.hits.length = 0;
  }
  readonly interceptor: ActivityInterceptorsFactory = (ctx) => ({
    inbound: {
      execute: async (input: ActivityExecuteInput, next: (i: ActivityExecuteInput) => Promise<unknown>) => {
        if (this.armed === 0 || ctx.info.isLocal || ctx.info.attempt > CRASHED_ATTEMPTS_PER_ACTIVITY) return next(input);
        this.armed--;
        const afterWork = this.crashes++ % 2 === 1;
        this.hits.push(`${ctx.info.activityType} ${afterWork ? 'after' : 'before'} its work`);
        if (afterWork) await next(input);
        throw new Error(`the worker died ${afterWork ? 'after' : 'before'} ${ctx.info.activityType} did its work (money model)`);
      },
    },
  });
}
