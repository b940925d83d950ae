import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { MandateState } from '../domain/mandate';
import type { OrderRef } from '../store/transaction-repository';
import { mandateWorkflowClient } from '../temporal/mandate-client';
import type { MandateDeps } from './create-mandate';
import { acrossHandOver } from './mandate-hand-over';

export type RevokeResult =
  { kind: 'unknownMandate' } | { kind: 'notActive'; state: MandateState } | { kind: 'ended'; state: MandateState };

/** The payer revokes an ACTIVE mandate: its workflow ends it and cancels every scheduled debit. */
export async function revokeMandate(deps: Pick<MandateDeps, 'mandates' | 'temporal'>, order: OrderRef): Promise<RevokeResult> {
  const mandate = await deps.mandates.findByOrder(order);
  if (!mandate) return { kind: 'unknownMandate' };
  try {
    const state = await acrossHandOver(() => mandateWorkflowClient(deps.temporal).revoke(order));
    return { kind: 'ended', state };
  } catch (e) {
    if (!(e instanceof WorkflowUpdateFailedError || e instanceof WorkflowNotFoundError)) throw e;
    const now = await deps.mandates.findByOrder(order);
    return { kind: 'notActive', state: now?.state ?? mandate.state };
  }
}
