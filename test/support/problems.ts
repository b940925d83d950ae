import { Client, Connection } from '@temporalio/client';

/**
 * Failed tasks only. Temporal UI also lists timed-out ones, but in tests those are a gateway
 * stopped with a task in hand (nothing polls its task queue again), not a defect of the code.
 */
const PROBLEMS = ['category=WorkflowTaskFailed'];

/**
 * Running workflows whose tasks keep failing: Temporal sets the system search attribute
 * TemporalReportedProblems on them (the test dev server after the first failed task, see
 * servers.ts; a server of default settings after several). Each is named with its problems.
 */
export async function reportedProblems(client: Client, filter?: string): Promise<string[]> {
  const query = [
    `ExecutionStatus = 'Running'`,
    `TemporalReportedProblems IN (${PROBLEMS.map((p) => `'${p}'`).join(', ')})`,
    ...(filter ? [filter] : []),
  ].join(' AND ');
  const found: string[] = [];
  for await (const w of client.workflow.list({ query })) {
    const problems = (w.searchAttributes?.TemporalReportedProblems ?? []) as unknown[];
    found.push(`${w.workflowId} (${w.type}): ${problems.join(', ')}`);
  }
  return found;
}

/**
 * After a run: fails, naming them, when workflows this run started on the test dev server are left
 * failing their tasks (a stuck workflow passes every test that does not wait for it).
 */
export async function assertNoReportedProblems(address: string, since: Date): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const found = await reportedProblems(new Client({ connection }), `StartTime >= '${since.toISOString()}'`);
    if (found.length > 0) {
      throw new Error(
        `${found.length} workflow(s) of this run report problems (failing workflow tasks):\n  ${found.join('\n  ')}`,
      );
    }
  } finally {
    await connection.close();
  }
}
