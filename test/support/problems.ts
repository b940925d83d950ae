import { Connection, type WorkflowService } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';

/**
 * Failed tasks only. Temporal UI also lists timed-out ones, but in tests those are a gateway
 * stopped with a task in hand (nothing polls its task queue again), not a defect of the code.
 */
const PROBLEMS = ['category=WorkflowTaskFailed'];

/**
 * Running workflows whose tasks keep failing: Temporal sets the system search attribute
 * TemporalReportedProblems on them (the test dev server after the first failed task, see
 * servers.ts; a server of default settings after several). Each is named with its problems.
 *
 * Reads the raw list (ids, type and search attributes only): memos and other payloads are
 * encrypted by the payload codec, under a different key for each test gateway, and are never
 * decoded here. Search attributes are never encoded (Temporal indexes them), so they always read.
 */
export async function reportedProblems(
  service: { workflowService: WorkflowService },
  filter?: string,
  namespace = 'default',
): Promise<string[]> {
  const query = [
    `ExecutionStatus = 'Running'`,
    `TemporalReportedProblems IN (${PROBLEMS.map((p) => `'${p}'`).join(', ')})`,
    ...(filter ? [filter] : []),
  ].join(' AND ');
  const found: string[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await service.workflowService.listWorkflowExecutions({ namespace, query, nextPageToken });
    for (const w of page.executions ?? []) {
      const raw = w.searchAttributes?.indexedFields?.TemporalReportedProblems;
      const problems = raw ? (defaultPayloadConverter.fromPayload(raw) as unknown[]) : [];
      found.push(`${w.execution?.workflowId} (${w.type?.name}): ${problems.join(', ')}`);
    }
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return found;
}

const reportedBefore = new Set<string>();

/**
 * After a run (or each file of a parallel worker): fails, naming them, when workflows started on
 * the test dev server since `since` are left failing their tasks (a stuck workflow passes every
 * test that does not wait for it). Each is reported once: a worker's later files do not fail again
 * for a workflow an earlier file was failed for.
 */
export async function assertNoNewReportedProblems(address: string, since: Date): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const found = (await reportedProblems(connection, `StartTime >= '${since.toISOString()}'`)).filter(
      (p) => !reportedBefore.has(p.split(' ')[0]!),
    );
    for (const p of found) reportedBefore.add(p.split(' ')[0]!);
    if (found.length > 0) {
      throw new Error(
        `${found.length} workflow(s) of this run report problems (failing workflow tasks):\n  ${found.join('\n  ')}`,
      );
    }
  } finally {
    await connection.close();
  }
}
