import {
  isGrpcServiceError,
  ServiceError,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { SettlementRunOutcome } from '../domain/settlement';
import type { WorkflowRunStatus } from '../domain/settlement-attention';
import {
  releaseSettlementSignal,
  SETTLEMENT_WORKFLOW_TYPE,
  settlementWorkflowId,
  type SettlementWorkflow,
  type SettlementWorkflowInput,
} from './settlement-contract';

export type { SettlementRunOutcome };

/*
 * The settlement workflow as its callers see it (workflows/settlement.ts): its start (id, options),
 * the status of its runs, the operator's run command and the release signal.
 */

/**
 * Starts `settlement:<merchant>:<date>` unless it runs or has completed; true when this call
 * started it. A run that failed, was terminated or timed out is started again (its steps are
 * idempotent and pick up from the settlement's stored state); a completed one never runs twice.
 */
export async function startSettlement(
  deps: { temporal: Client; taskQueue: string },
  input: SettlementWorkflowInput,
): Promise<boolean> {
  try {
    await deps.temporal.workflow.start<SettlementWorkflow>(SETTLEMENT_WORKFLOW_TYPE, {
      workflowId: settlementWorkflowId(input.merchantIdentifier, input.settlementDate),
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
    });
    return true;
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw e;
  }
}

/** The status of the settlement workflow's latest run (null when there is none). */
export async function settlementRunStatus(temporal: Client, settlementId: string): Promise<WorkflowRunStatus> {
  try {
    const { status } = await temporal.workflow.getHandle(settlementId).describe();
    const name = status.name;
    return name === 'RUNNING' || name === 'COMPLETED' || name === 'FAILED' || name === 'TERMINATED' || name === 'TIMED_OUT'
      ? name
      : 'OTHER';
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return null;
    throw e;
  }
}

/**
 * The ids of settlement workflows whose runs stopped without completing (failed, terminated, timed
 * out), newest first, at most `limit` distinct ids (Temporal's visibility list: a later run of the
 * same id may have started since; settlementRunStatus says).
 */
export async function stoppedSettlementRuns(temporal: Client, limit: number): Promise<string[]> {
  const query =
    `WorkflowType = '${SETTLEMENT_WORKFLOW_TYPE}' AND ` +
    "(ExecutionStatus = 'Failed' OR ExecutionStatus = 'Terminated' OR ExecutionStatus = 'TimedOut')";
  const ids = new Set<string>();
  try {
    for await (const run of temporal.workflow.list({ query, pageSize: limit })) {
      ids.add(run.workflowId);
      if (ids.size >= limit) break;
    }
  } catch (e) {
    // A server without a visibility list (the time-skipping test server): the stopped runs are
    // then found as the others are, once past their state's time.
    if (e instanceof ServiceError && isGrpcServiceError(e.cause) && e.cause.code === 12 /* UNIMPLEMENTED */) return [];
    throw e;
  }
  return [...ids];
}

/** Starts the settlement, or says why not: its workflow runs, or completed (the operator's run command). */
export async function runSettlement(
  deps: { temporal: Client; taskQueue: string },
  input: SettlementWorkflowInput,
): Promise<SettlementRunOutcome> {
  if (await startSettlement(deps, input)) return 'started';
  const status = await settlementRunStatus(deps.temporal, settlementWorkflowId(input.merchantIdentifier, input.settlementDate));
  return status === 'RUNNING' ? 'already_running' : 'already_completed';
}

/** Tells a settlement waiting in `held` to look again (releaseSettlementSignal); WorkflowNotFoundError when its workflow is gone. */
export async function releaseSettlement(temporal: Client, settlementId: string): Promise<void> {
  await temporal.workflow.getHandle(settlementId).signal(releaseSettlementSignal);
}
