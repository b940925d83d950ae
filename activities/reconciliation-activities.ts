import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { judgeRow, type ReconciliationRow } from '../src/domain/reconciliation';
import { PaymentResponse } from '../src/domain/response-codes';
import type { Transaction } from '../src/domain/transaction';
import type { MerchantRepository } from '../src/store/merchant-repository';
import type { BatchResult, ReconciliationReport, ReconciliationRepository } from '../src/store/reconciliation-repository';
import type { TransactionRepository } from '../src/store/transaction-repository';
import { ReconciliationFailure } from '../src/temporal/reconciliation-contract';
import { offerBankAnswer } from '../src/usecases/offer-bank-answer';
import { startRefund } from '../src/usecases/start-refund';
import { delayedSuccessUpdate, reportLateUpdate } from '../src/usecases/report-late-update';

export interface ReconciliationActivityDeps {
  transactions: TransactionRepository;
  merchants: MerchantRepository;
  reconciliations: ReconciliationRepository;
  temporal: Client;
  taskQueue: string;
  /** Late updates are gathered this long for the non-real-time webhook (WEBHOOK_BATCH_WINDOW). */
  webhookBatchWindowMs: number;
  now: () => Date;
}

/** The reason auto-refunds carry (Zaakpay's updateReason rules: 5-30 letters, digits, spaces). */
export const AUTO_REFUND_REASON = 'auto refund delayed success';
export const autoRefundRefId = (txnId: string) => `auto-${txnId}`;

/** How long a line waits (about twice this, in all) for a payment being recorded before the batch is retried. */
const RECORDING_WAIT_MS = 3_200;

/**
 * How long an attempt holds a batch without renewing (renewed every third of it while it applies
 * lines). A worker that died holding it delays the batch's retry this long at most.
 */
export const BATCH_LEASE_MS = 60_000;

export function createReconciliationActivities(deps: ReconciliationActivityDeps) {
  return {
    /**
     * Applies one stored batch of a file: one store query finds its transactions; each changing line
     * is a conditional write (or an update to the payment still waiting for its bank). A batch applies
     * once: its result is saved, and a retry after that returns it.
     */
    async applyReconciliationBatch(input: {
      reconciliationId: string;
      batch: number;
    }): Promise<{ applied: number; changed: number }> {
      const { reconciliationId, batch: n } = input;
      const batch = await deps.reconciliations.batch(reconciliationId, n);
      if (!batch) throw new Error(`batch ${n} of reconciliation ${reconciliationId} does not exist`);
      if (batch.result) return { applied: batch.result.applied, changed: batch.result.changed.length };
      // One attempt at a time applies a batch: a second (the retry of an attempt that timed out on a
      // worker still running it) waits for the lease, then finds the result or takes over.
      const owner = randomUUID();
      let renewAt = 0;
      const holdLease = async () => {
        const at = deps.now();
        if (at.getTime() < renewAt) return;
        const lease = { owner, until: new Date(at.getTime() + BATCH_LEASE_MS) };
        if (!(await deps.reconciliations.leaseBatch(reconciliationId, n, lease, at))) {
          const done = (await deps.reconciliations.batch(reconciliationId, n))?.result;
          if (done && renewAt === 0) return done;
          throw ApplicationFailure.retryable(
            `batch ${n} of reconciliation ${reconciliationId} is being applied by another attempt`,
            ReconciliationFailure.BATCH_LEASED,
          );
        }
        renewAt = at.getTime() + BATCH_LEASE_MS / 3;
      };
      const done = await holdLease();
      if (done) return { applied: done.applied, changed: done.changed.length };
      const found = await deps.transactions.findByTxnIds([...new Set(batch.rows.map((r) => r.txnId))]);
      const byTxnId = new Map(found.map((t) => [t.txnId, t]));
      const result: BatchResult = { applied: 0, unchanged: 0, rejected: [], changed: [] };
      // Every write is idempotent (a conditional update, an answer the workflow takes once, a refund
      // keyed by the txnId): a retry of a half-applied batch reaches the same state, and a line it
      // applied before the crash then counts as unchanged.
      for (const row of batch.rows) {
        await holdLease();
        await applyRow(deps, row, byTxnId.get(row.txnId), result);
      }
      if (!(await deps.reconciliations.saveBatchResult(reconciliationId, n, result, owner)))
        throw ApplicationFailure.retryable(
          `batch ${n} of reconciliation ${reconciliationId}: the lease was lost while applying it`,
          ReconciliationFailure.BATCH_LEASED,
        );
      return { applied: result.applied, changed: result.changed.length };
    },

    async finishReconciliation(input: {
      reconciliationId: string;
    }): Promise<Omit<ReconciliationReport, 'rejected'> & { rejected: number }> {
      const report = await deps.reconciliations.finish(input.reconciliationId, deps.now());
      return { ...report, rejected: report.rejected.length };
    },
  };
}

export type ReconciliationActivities = ReturnType<typeof createReconciliationActivities>;

/** Applies one line to its transaction; returns what happened to it. */
async function applyRow(
  deps: ReconciliationActivityDeps,
  row: ReconciliationRow,
  t: Transaction | undefined,
  result: BatchResult,
): Promise<void> {
  const verdict = judgeRow(row, t);
  if (verdict.kind === 'rejected') return void result.rejected.push({ line: row.line, reason: verdict.reason });
  if (verdict.kind === 'unchanged') {
    // Changed by an earlier try of this batch that stopped before its follow-ups were started.
    if (t?.lateFollowUpsPending) await startFollowUps(deps, t);
    return void result.unchanged++;
  }
  const txn = t!;
  if (verdict.kind === 'answerWaitingPayment') {
    const taken = await offerBankAnswer(deps.temporal, txn, {
      approved: verdict.approved,
      response: verdict.approved ? 'success' : 'declinedByBank',
      bankRefNum: row.bankRefNum,
      authCode: null,
      delayed: true,
    });
    if (!taken) {
      // The workflow decided (or has not started): the line applies to what it records.
      return applyRow(deps, row, await recordedOutcome(deps, txn), result);
    }
    result.applied++;
    result.changed.push({
      merchantIdentifier: txn.merchantIdentifier,
      orderId: txn.orderId,
      txnId: txn.txnId,
      autoRefundRefId: null,
    });
    return;
  }
  const { applied, transaction } = await deps.transactions.recordOutcome(
    txn,
    {
      status: 'Success',
      responseCode: PaymentResponse.success.code,
      responseDescription: PaymentResponse.success.description,
      bankRefNum: row.bankRefNum,
      authCode: null,
      markedFailedByService: false,
      delayedSuccess: true,
      lateFollowUpsPending: true,
    },
    deps.now(),
    ['Failure'],
  );
  if (!applied) {
    if (transaction.lateFollowUpsPending) await startFollowUps(deps, transaction);
    return void result.unchanged++;
  }
  result.applied++;
  const refundRefId = await startFollowUps(deps, transaction);
  result.changed.push({
    merchantIdentifier: txn.merchantIdentifier,
    orderId: txn.orderId,
    txnId: txn.txnId,
    autoRefundRefId: refundRefId,
  });
}

/**
 * The transaction once its workflow recorded an outcome: read again for a little while (recording
 * takes milliseconds), then the batch fails and Temporal retries it, so a line is never counted or
 * dropped while its payment is still Pending (a workflow recording through a store outage, or one
 * the pending sweep has not started yet).
 */
async function recordedOutcome(deps: ReconciliationActivityDeps, txn: Transaction): Promise<Transaction> {
  for (let wait = 50; ; wait *= 2) {
    const [now] = await deps.transactions.findByTxnIds([txn.txnId]);
    if (now && now.status !== 'Pending') return now;
    if (wait > RECORDING_WAIT_MS) break;
    await new Promise((r) => setTimeout(r, wait));
  }
  throw new Error(`transaction ${txn.txnId} is still Pending and its workflow refused the line: retrying the batch`);
}

/**
 * What a delayed success sets off: the auto-refund when the merchant has it on (its workflow reports
 * it to the non-real-time webhook once it succeeds) and the delayed success itself for that
 * webhook. Both are idempotent (the refund is keyed by the txnId, the update by its success time),
 * so a retry after a crash starts each at most once; the pending mark is cleared last.
 */
async function startFollowUps(deps: ReconciliationActivityDeps, txn: Transaction): Promise<string | null> {
  const merchant = await deps.merchants.findById(txn.merchantIdentifier);
  let refundRefId: string | null = null;
  if (merchant?.autoRefund) {
    refundRefId = autoRefundRefId(txn.txnId);
    await startRefund(deps, {
      merchantIdentifier: txn.merchantIdentifier,
      orderId: txn.orderId,
      updateDesired: '14',
      merchantRefId: refundRefId,
      updateReason: AUTO_REFUND_REASON,
      auto: true,
    });
  }
  await reportLateUpdate(deps, txn.merchantIdentifier, delayedSuccessUpdate(txn, deps.now()));
  await deps.transactions.clearLateFollowUps(txn);
  return refundRefId;
}
