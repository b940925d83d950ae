import type { Client } from '@temporalio/client';
import type { MandateRepository } from '../src/store/mandate-repository';
import type { TransactionRepository } from '../src/store/transaction-repository';
import { ensureMandateWorkflow, type MandateWorkflowDeps } from '../src/usecases/create-mandate';
import { ensurePaymentWorkflow } from '../src/usecases/start-payment';
import { ensureRefundWorkflow } from '../src/usecases/start-refund';

export interface SweepActivityDeps {
  transactions: TransactionRepository;
  temporal: Client;
  taskQueue: string;
  bankTimeoutMs: number;
  qrExpiryMs: number;
  now: () => Date;
  mandates: MandateRepository;
  /** How mandate workflows are started (from the configuration). */
  mandateWorkflow: Omit<MandateWorkflowDeps, 'temporal' | 'taskQueue'>;
}

/**
 * Heals the crash windows between a store write and its workflow start: every order still Pending
 * after `olderThanMs` gets its payment workflow ensured, every refund still PENDING its refund
 * workflow, and every mandate still CREATED its mandate workflow (each a no-op when it exists).
 */
export function createSweepActivities(deps: SweepActivityDeps) {
  return {
    async ensureWorkflowsOfStalePayments(input: { olderThanMs: number; limit: number }): Promise<{ checked: number }> {
      const stale = await deps.transactions.findPendingSince(new Date(deps.now().getTime() - input.olderThanMs), input.limit);
      // A mandate debit waits for its executionDate in its own workflow, started with the transaction.
      for (const t of stale) if (t.instrument.kind !== 'UPI_MANDATE') await ensurePaymentWorkflow(deps, t);
      await deps.transactions.markSwept(stale, deps.now());
      const refunding = await deps.transactions.findWithPendingRefundsSince(
        new Date(deps.now().getTime() - input.olderThanMs),
        input.limit,
      );
      for (const t of refunding) {
        for (const refund of t.refunds.filter((r) => r.status === 'PENDING')) await ensureRefundWorkflow(deps, t, refund);
      }
      const unstarted = await deps.mandates.findCreatedBefore(new Date(deps.now().getTime() - input.olderThanMs), input.limit);
      for (const m of unstarted)
        await ensureMandateWorkflow({ ...deps.mandateWorkflow, temporal: deps.temporal, taskQueue: deps.taskQueue }, m);
      return { checked: stale.length + refunding.length + unstarted.length };
    },
  };
}

export type SweepActivities = ReturnType<typeof createSweepActivities>;
