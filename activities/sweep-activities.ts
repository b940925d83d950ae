import type { Client } from '@temporalio/client';
import type { TransactionRepository } from '../src/store/transaction-repository';
import { ensurePaymentWorkflow } from '../src/usecases/start-payment';

export interface SweepActivityDeps {
  transactions: TransactionRepository;
  temporal: Client;
  taskQueue: string;
  bankTimeoutMs: number;
  qrExpiryMs: number;
  now: () => Date;
}

/**
 * Heals the crash window between writing a Pending order and starting its workflow: every order
 * still Pending after `olderThanMs` gets its payment workflow ensured (a no-op when it exists).
 */
export function createSweepActivities(deps: SweepActivityDeps) {
  return {
    async ensureWorkflowsOfStalePayments(input: { olderThanMs: number; limit: number }): Promise<{ checked: number }> {
      const stale = await deps.transactions.findPendingSince(new Date(deps.now().getTime() - input.olderThanMs), input.limit);
      for (const t of stale) await ensurePaymentWorkflow(deps, t);
      return { checked: stale.length };
    },
  };
}

export type SweepActivities = ReturnType<typeof createSweepActivities>;
