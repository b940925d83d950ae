import { isGrpcServiceError, type Client, type Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import type { TestServerClock } from './test-server-clock';
import { withCallContext } from './call-context';

const { EventType } = temporal.api.enums.v1;
const { PendingActivityState } = temporal.api.enums.v1;
type Execution = temporal.api.common.v1.IWorkflowExecution;

export type SkipResult =
  | { kind: 'skipped'; from: Date; to: Date }
  | { kind: 'notAhead'; now: Date }
  /**
   * Workflows were still busy at the deadline: before the skip (`moving` false: time was not moved),
   * or after it began (time goes on to the target as they finish).
   */
  | { kind: 'stillBusy'; moving: boolean; now: Date; busyWorkflowIds: string[] };

/** Two clean looks this far apart: a timer that fell due with the skip is dispatched by the server a moment after the skip's own wake-up. */
const SETTLE_MS = 100;

/**
 * Moves the time-skipping test server's time forward for a tester. The server fires every timer
 * that falls due, in order, and holds its time still while any workflow task or activity is
 * outstanding (that is what unlockTimeSkippingWithSleep does); once the target is reached this
 * waits until no open workflow has work outstanding, so the skip's consequences (a debit recorded,
 * a webhook sent) are done when the tester reads them. Skips run one at a time.
 */
export class TimeTravel {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: Client,
    readonly clock: TestServerClock,
    private readonly timeoutMs: number,
  ) {}

  /** Skips by `byMs` counted from the moment the skip starts (after earlier work settled), or to `to`. */
  skip(request: { byMs: number } | { to: Date }): Promise<SkipResult> {
    const run = this.queue.then(() => this.skipNow(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async skipNow(request: { byMs: number } | { to: Date }): Promise<SkipResult> {
    const deadline = Date.now() + this.timeoutMs;
    // Work already under way settles first, at the current time: a payment started just before
    // the skip has set its bank timer by then, so "pay, then skip 15 minutes" times it out.
    const busyBefore = await this.untilIdle(deadline);
    if (busyBefore.length > 0)
      return { kind: 'stillBusy', moving: false, now: await this.syncedNow(), busyWorkflowIds: busyBefore };
    const from = await this.clock.sync();
    const target = 'to' in request ? request.to : new Date(from.getTime() + request.byMs);
    if (target.getTime() <= from.getTime()) return { kind: 'notAhead', now: this.clock.now() };
    // Measured from the server's own reading: the sleep starts a moment later, so it ends at or just after the target.
    const duration = msToTs(target.getTime() - from.getTime());
    try {
      const connection = this.client.connection as Connection;
      await withCallContext(connection, () =>
        connection.withDeadline(deadline, () => this.clock.testService.unlockTimeSkippingWithSleep({ duration })),
      );
    } catch (e) {
      if (!isDeadlineExceeded(e)) throw e;
      // The server keeps its wake-up: time goes on to the target as the busy workflows finish.
      return { kind: 'stillBusy', moving: true, now: await this.syncedNow(), busyWorkflowIds: await this.busyWorkflowIds() };
    }
    const busy = await this.untilIdle(deadline);
    if (busy.length > 0) return { kind: 'stillBusy', moving: true, now: await this.syncedNow(), busyWorkflowIds: busy };
    return { kind: 'skipped', from, to: await this.syncedNow() };
  }

  private async syncedNow(): Promise<Date> {
    await this.clock.sync();
    return this.clock.now();
  }

  /** Waits for two clean looks in a row; answers the busy workflows if the deadline comes first. */
  private async untilIdle(deadline: number): Promise<string[]> {
    let cleanLooks = 0;
    for (;;) {
      const busy = await this.busyWorkflowIds();
      cleanLooks = busy.length === 0 ? cleanLooks + 1 : 0;
      if (cleanLooks === 2) return [];
      if (Date.now() + SETTLE_MS > deadline) return busy;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    }
  }

  /** Open workflows with a workflow task or an activity outstanding (the test server has no visibility queries, so each is described). */
  private async busyWorkflowIds(): Promise<string[]> {
    const service = this.client.workflowService;
    const namespace = this.client.options.namespace;
    const { executions } = await service.listOpenWorkflowExecutions({ namespace, maximumPageSize: 10_000 });
    const verdicts = await Promise.all(
      executions.map(async ({ execution }) => ((await this.isBusy(execution!)) ? execution!.workflowId! : null)),
    );
    return verdicts.filter((id): id is string => id !== null);
  }

  private async isBusy(execution: Execution): Promise<boolean> {
    const service = this.client.workflowService;
    const namespace = this.client.options.namespace;
    try {
      const { pendingActivities } = await service.describeWorkflowExecution({ namespace, execution });
      // An activity waiting out a retry backoff (scheduled, with a failure behind it) does not hold time still.
      const working = pendingActivities.some(
        (a) =>
          a.state === PendingActivityState.PENDING_ACTIVITY_STATE_STARTED ||
          (a.state === PendingActivityState.PENDING_ACTIVITY_STATE_SCHEDULED && !a.lastFailure),
      );
      if (working) return true;
      const last = await this.lastEventType(execution);
      return last === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED || last === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED;
    } catch (e) {
      // Closed between the listing and the look: nothing outstanding.
      if (isGrpcServiceError(e) && e.code === 5 /* NOT_FOUND */) return false;
      throw e;
    }
  }

  private async lastEventType(execution: Execution): Promise<temporal.api.enums.v1.EventType | null | undefined> {
    const service = this.client.workflowService;
    const namespace = this.client.options.namespace;
    let nextPageToken: Uint8Array | undefined;
    let last: temporal.api.enums.v1.EventType | null | undefined;
    do {
      const page = await service.getWorkflowExecutionHistory({ namespace, execution, nextPageToken });
      const events = page.history?.events ?? [];
      if (events.length > 0) last = events[events.length - 1].eventType;
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
    return last;
  }
}

const isDeadlineExceeded = (e: unknown) => isGrpcServiceError(e) && e.code === 4; /* DEADLINE_EXCEEDED */
