import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { parseReconciliationFile } from '../domain/reconciliation';
import type { ReconciliationReport, ReconciliationRepository } from '../store/reconciliation-repository';
import { reconciliationWorkflowClient } from '../temporal/reconciliation-client';

export const RECONCILIATION_BATCH_SIZE = 500;

/**
 * Accepts a bank reconciliation file: parses it (a bad header throws ReconciliationFileError),
 * stores its rows in batches and starts the workflow that applies them. Returns the id to read the
 * report by. Applying a file twice changes nothing the second time: its lines report as unchanged.
 */
export async function startReconciliation(
  deps: { reconciliations: ReconciliationRepository; temporal: Client; taskQueue: string; now: () => Date },
  fileText: string,
): Promise<string> {
  const parsed = parseReconciliationFile(fileText);
  const reconciliationId = `rcn-${randomBytes(8).toString('hex')}`;
  const batches = await deps.reconciliations.create(reconciliationId, parsed, RECONCILIATION_BATCH_SIZE, deps.now());
  await reconciliationWorkflowClient(deps.temporal).start(
    deps.taskQueue,
    { reconciliationId, batches },
    { lines: parsed.lines, unparsable: parsed.rejected.length },
  );
  return reconciliationId;
}

/** A reconciliation's report (lines applied, unchanged, rejected, and the transactions it changed); null when unknown. */
export function reconciliationReport(
  deps: { reconciliations: ReconciliationRepository },
  reconciliationId: string,
): Promise<ReconciliationReport | null> {
  return deps.reconciliations.report(reconciliationId);
}
