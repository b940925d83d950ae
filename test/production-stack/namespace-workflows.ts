/**
 * Every workflow of the stack's Temporal namespace, whatever its type and merchant (the schedules'
 * sweeps and settlement runs included), as the kill probes' final check judges them (final-check.ts).
 */
import type { Client } from '@temporalio/client';
import { failedTasks } from '../support/money-model/failed-tasks';

/** A running workflow that may go on running when the check ends: it waits by design. */
export type MayRun = (run: { workflowId: string; type: string }) => boolean;

/**
 * Types that run on a clock of their own: a mandate lives until its end date; a settlement run
 * waits for its day's cut-off, the bank's payout answer or an operator. The merchant's own check
 * (workflowsHealthy) judges its mandates and debits; the money model judges settlements with time.
 */
const RUN_BY_DESIGN = new Set<string>([
  'mandateWorkflow',
  'settlementWorkflow',
  'settlementDayWorkflow',
  'settlementFileWorkflow',
]);

/**
 * Problems of the namespace's workflows now: one that ended otherwise than completed (or continued
 * as new), one that failed a workflow task (but the benign causes, failed-tasks.ts), one still
 * running that `mayRun` does not allow. `closedClean` holds the runs already found closed and
 * clean: a closed run's history no longer changes, so a later look skips it. Temporal's own
 * workflows (`temporal-sys-*`: a schedule's, a worker deployment's), if listed, are not the gateway's.
 */
export async function namespaceWorkflowProblems(
  client: Client,
  mayRun: MayRun,
  closedClean: Set<string>,
): Promise<{ problems: string[]; runs: number; byType: Record<string, number> }> {
  const problems: string[] = [];
  const byType: Record<string, number> = {};
  let runs = 0;
  for await (const w of client.workflow.list()) {
    runs++;
    byType[w.type] = (byType[w.type] ?? 0) + 1;
    const key = `${w.workflowId}/${w.runId}`;
    if (closedClean.has(key) || w.type.startsWith('temporal-sys-')) continue;
    const status = w.status.name;
    const name = `workflow ${w.workflowId} (${w.type}, run ${w.runId})`;
    const before = problems.length;
    if (status === 'RUNNING') {
      if (!RUN_BY_DESIGN.has(w.type) && !mayRun({ workflowId: w.workflowId, type: w.type }))
        problems.push(`(5) ${name} is still running, started ${w.startTime.toISOString()}`);
    } else if (status !== 'COMPLETED' && status !== 'CONTINUED_AS_NEW') problems.push(`(5) ${name} is ${status}`);
    const history = await client.workflow.getHandle(w.workflowId, w.runId).fetchHistory();
    const failed = failedTasks(history, true);
    if (failed.length > 0) problems.push(`(5) ${name} failed ${failed.length} workflow task(s): ${failed.join('; ')}`);
    if (status !== 'RUNNING' && problems.length === before) closedClean.add(key);
  }
  return { problems, runs, byType };
}
