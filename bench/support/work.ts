/**
 * What one side of a bench row does, counted rather than written: the Temporal work read from
 * sampled histories, the store commands counted as the driver sends them, and the settings the
 * side ran with. The row prints, records and summarises the text `describeWork` makes of them.
 */
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Temporal work of one execution, from its history. */
export interface TemporalWork {
  workflowTasks: number;
  activityTasks: number;
  localActivities: number;
  timers: number;
  childWorkflows: number;
  events: number;
}

/** Counts what one history asked of the server and the worker. */
export function historyWork(events: readonly HistoryEvent[]): TemporalWork {
  const count = (has: (e: HistoryEvent) => unknown) => events.filter((e) => has(e)).length;
  return {
    workflowTasks: count((e) => e.workflowTaskCompletedEventAttributes),
    activityTasks: count((e) => e.activityTaskScheduledEventAttributes),
    // sdk-core records each local activity's result as a marker of this name.
    localActivities: count((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity'),
    timers: count((e) => e.timerStartedEventAttributes),
    childWorkflows: count((e) => e.startChildWorkflowExecutionInitiatedEventAttributes),
    events: events.length,
  };
}

/** The mean of each count over several executions (a sample of a side's workflows). */
export function meanWork(works: readonly TemporalWork[]): TemporalWork {
  const mean = (k: keyof TemporalWork) => Number((works.reduce((n, w) => n + w[k], 0) / Math.max(1, works.length)).toFixed(2));
  return {
    workflowTasks: mean('workflowTasks'),
    activityTasks: mean('activityTasks'),
    localActivities: mean('localActivities'),
    timers: mean('timers'),
    childWorkflows: mean('childWorkflows'),
    events: mean('events'),
  };
}

/** Commands a driver connection sends for its own upkeep, not for the work measured. */
const UPKEEP = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'endSessions', 'saslStart', 'saslContinue', 'buildInfo']);

interface DriverConnection {
  command(ns: unknown, command: Record<string, unknown>, ...rest: unknown[]): Promise<unknown>;
}

let counting: Map<string, number> | undefined;
let installed = false;

/**
 * Counts, by command name, every store command any driver client of this process sends between
 * `start` and `stop`: the driver's command monitoring is fixed when a client is made, and the
 * gateway's client is made without it, so the count is taken at the connection's `command`.
 */
export function storeCommandCounter(): { start(): void; stop(): Record<string, number> } {
  if (!installed) {
    const { Connection } = require('mongodb/lib/cmap/connection') as { Connection: { prototype: DriverConnection } };
    const send = Connection.prototype.command;
    Connection.prototype.command = function (this: DriverConnection, ns, command, ...rest) {
      const name = Object.keys(command)[0] ?? '?';
      if (counting && !UPKEEP.has(name)) counting.set(name, (counting.get(name) ?? 0) + 1);
      return send.call(this, ns, command, ...rest);
    };
    installed = true;
  }
  return {
    start() {
      counting = new Map();
    },
    stop() {
      const counted = Object.fromEntries(counting ?? []);
      counting = undefined;
      return counted;
    },
  };
}

/** What one side does, in the words every row uses. */
export interface Work {
  /** What is done once per operation, e.g. "signed checkout + hosted page + pay form (3 HTTP requests)". */
  does: string;
  temporal?: TemporalWork;
  /** Store commands per operation, by name (counted over `operations`). */
  storeCommands?: { byName: Record<string, number>; operations: number };
  logLevel?: string;
  rateLimits?: string;
  /** Anything else the side ran with that weighs on it (a webhook URL, a retry schedule). */
  also?: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line: what is done, the Temporal work, store commands per operation, logging, limits. */
export function describeWork(w: Work): string {
  const parts = [w.does];
  if (w.temporal) {
    const t = w.temporal;
    const temporalParts = [
      plural(t.workflowTasks, 'workflow task'),
      plural(t.localActivities, 'local activity', 'local activities'),
      plural(t.activityTasks, 'activity task'),
      ...(t.timers ? [plural(t.timers, 'timer')] : []),
      ...(t.childWorkflows ? [plural(t.childWorkflows, 'child workflow')] : []),
      `${t.events} history events`,
    ];
    parts.push(`Temporal: ${temporalParts.join(', ')}`);
  }
  if (w.storeCommands) {
    const { byName, operations } = w.storeCommands;
    const per = (n: number) => Number((n / Math.max(1, operations)).toFixed(2));
    const total = per(Object.values(byName).reduce((a, b) => a + b, 0));
    const names = Object.entries(byName)
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} ${per(n)}`)
      .join(', ');
    parts.push(`store: ${total} commands per operation${names ? ` (${names})` : ''}`);
  }
  if (w.logLevel) parts.push(`log level ${w.logLevel}`);
  if (w.rateLimits) parts.push(`rate limits ${w.rateLimits}`);
  parts.push(...(w.also ?? []));
  return parts.join('; ');
}

/** RATE_LIMIT_PER_SECOND as a row says it. */
export const rateLimitsOf = (perSecond: number) => (perSecond > 0 ? `on (${perSecond}/s per merchant and API family)` : 'off');
