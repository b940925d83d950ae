import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
const Cause = temporal.api.enums.v1.WorkflowTaskFailedCause;

/**
 * Causes Temporal records as a failed workflow task while the workflow works as designed: the
 * server refused a completion because a signal or an update arrived meanwhile (it schedules the
 * task again with them), or a worker dropped the workflow from its sticky cache (another replays it).
 */
const BENIGN = new Set<number>([
  Cause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND,
  Cause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_UPDATE,
  Cause.WORKFLOW_TASK_FAILED_CAUSE_RESET_STICKY_TASK_QUEUE,
]);

/**
 * The workflow task failures of a history, named by cause (a nondeterminism, a workflow's own
 * error, ...). With `benign`, the causes above are left out: the probes of a real cluster meet
 * them; the money model's test server records none, and counts every failure.
 */
export function failedTasks(history: History, benign: boolean): string[] {
  return (history.events ?? []).flatMap((e) => {
    const a = e.workflowTaskFailedEventAttributes;
    if (!a) return [];
    const cause = a.cause ?? 0;
    if (benign && BENIGN.has(cause)) return [];
    const name = (Cause[cause] ?? String(cause)).replace('WORKFLOW_TASK_FAILED_CAUSE_', '');
    return [`${name}${a.failure?.message ? ` (${a.failure.message.slice(0, 120)})` : ''}`];
  });
}
