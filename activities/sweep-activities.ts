import { log } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { MandateRepository } from '../src/store/mandate-repository';
import type { TransactionRepository } from '../src/store/transaction-repository';
import { startChargebackNotice } from '../src/usecases/chargeback';
import { ensureMandateWorkflow, type MandateWorkflowDeps } from '../src/usecases/create-mandate';
import { ensurePaymentWorkflow } from '../src/usecases/start-payment';
import { ensureRefundWorkflow } from '../src/usecases/start-refund';
import type { SweepInput, SweepResult } from '../src/temporal/sweep-contract';

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

/** A sweep run's input: what is due (untouched for `olderThanMs`), read `limit` at a time. */
/** With pages of 500: up to 2,000 orders, 2,000 refunding orders and 2,000 mandates per run. */
export const DEFAULT_SWEEP_PAGES = 4;

/** One kind of item the sweep heals, read least recently swept first. */
interface SweepKind<T> {
  name: string;
  /** Due items, never swept first, then the longest unswept. */
  read(limit: number): Promise<T[]>;
  sweptAt(item: T): Date | undefined;
  heal(item: T): Promise<void>;
  markSwept(items: T[], at: Date): Promise<void>;
}

/**
 * Reads a kind's due items page by page, heals each and marks them swept, until every due item was
 * visited in this run (a page comes back short or starts with one swept at `runAt`) or the page
 * budget is spent. Marking moves them behind every item not yet visited, so the reads rotate across
 * runs: items that rightly wait (a refund at a slow bank, a mandate its payer has not approved)
 * never keep an orphan out of reach, however many there are. One item that cannot be healed now is
 * logged and left for its next turn rather than holding up the others.
 */
async function sweepKind<T>(kind: SweepKind<T>, input: SweepInput, runAt: Date): Promise<{ checked: number; failed: number }> {
  let checked = 0;
  let failed = 0;
  for (let page = 0; page < (input.pages ?? DEFAULT_SWEEP_PAGES); page++) {
    const items = await kind.read(input.limit);
    const unvisited = items.filter((i) => (kind.sweptAt(i)?.getTime() ?? -Infinity) < runAt.getTime());
    for (const item of unvisited) {
      try {
        await kind.heal(item);
      } catch (e) {
        failed++;
        log.warn(`sweep: could not heal a ${kind.name}; it is tried again in its next turn`, { error: String(e) });
      }
    }
    await kind.markSwept(unvisited, runAt);
    checked += unvisited.length;
    if (items.length < input.limit || unvisited.length < items.length) break;
  }
  return { checked, failed };
}

/**
 * Heals the crash windows between a store write and its workflow start: every order still Pending
 * after `olderThanMs` gets its payment workflow ensured, every refund still PENDING its refund
 * workflow, every chargeback change still noted unstarted its webhook delivery, and every mandate
 * still CREATED its mandate workflow (each a no-op when it exists).
 */
export function createSweepActivities(deps: SweepActivityDeps) {
  return {
    async ensureWorkflowsOfStalePayments(input: SweepInput): Promise<SweepResult> {
      const runAt = deps.now();
      const before = new Date(runAt.getTime() - input.olderThanMs);
      const runs = [
        await sweepKind(
          {
            name: 'Pending order',
            read: (limit) => deps.transactions.findPendingSince(before, limit),
            sweptAt: (t) => t.sweptAt,
            // A mandate debit waits for its executionDate in its own workflow, started with the transaction.
            heal: async (t) => {
              if (t.instrument.kind !== 'UPI_MANDATE') await ensurePaymentWorkflow(deps, t);
            },
            markSwept: (ts, at) => deps.transactions.markSwept(ts, at),
          },
          input,
          runAt,
        ),
        await sweepKind(
          {
            name: 'PENDING refund',
            read: (limit) => deps.transactions.findWithPendingRefundsSince(before, limit),
            sweptAt: (t) => t.refundsSweptAt,
            heal: async (t) => {
              for (const refund of t.refunds.filter((r) => r.status === 'PENDING')) await ensureRefundWorkflow(deps, t, refund);
            },
            markSwept: (ts, at) => deps.transactions.markRefundsSwept(ts, at),
          },
          input,
          runAt,
        ),
        await sweepKind(
          {
            name: 'chargeback notice',
            read: (limit) => deps.transactions.findWithChargebackNoticeSince(before, limit),
            sweptAt: (t) => t.chargebackNoticeSweptAt,
            heal: async (t) => {
              if (t.chargebackNotice)
                await startChargebackNotice(
                  { ...deps, config: { temporal: { taskQueue: deps.taskQueue } } },
                  t,
                  t.chargebackNotice,
                );
            },
            markSwept: (ts, at) => deps.transactions.markChargebackNoticesSwept(ts, at),
          },
          input,
          runAt,
        ),
        await sweepKind(
          {
            name: 'CREATED mandate',
            read: (limit) => deps.mandates.findCreatedBefore(before, limit),
            sweptAt: (m) => m.sweptAt,
            heal: (m) =>
              ensureMandateWorkflow({ ...deps.mandateWorkflow, temporal: deps.temporal, taskQueue: deps.taskQueue }, m),
            markSwept: (ms, at) => deps.mandates.markSwept(ms, at),
          },
          input,
          runAt,
        ),
      ];
      const failed = runs.reduce((n, r) => n + r.failed, 0);
      return { checked: runs.reduce((n, r) => n + r.checked, 0), ...(failed ? { failed } : {}) };
    },
  };
}

export type SweepActivities = ReturnType<typeof createSweepActivities>;
