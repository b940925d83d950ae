import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import { newTxnId } from '../domain/identifiers';
import { awaitsPayer, describeInstrument } from '../domain/instrument';
import type { PaymentRequest, Transaction } from '../domain/transaction';
import type { TransactionRepository } from '../store/transaction-repository';
import { paymentWorkflowClient } from '../temporal/payment-client';

export interface StartPaymentDeps {
  transactions: TransactionRepository;
  temporal: Client;
  taskQueue: string;
  bankTimeoutMs: number;
  /** How long a dynamic QR waits for its payer. */
  qrExpiryMs: number;
  now: () => Date;
}

/** The deps from a process's configuration and connections (API route and sweep activity alike). */
export function startPaymentDeps(d: {
  config: Pick<Config, 'temporal' | 'payments' | 'qr'>;
  transactions: TransactionRepository;
  temporal: Client;
  now: () => Date;
}): StartPaymentDeps {
  return {
    transactions: d.transactions,
    temporal: d.temporal,
    taskQueue: d.config.temporal.taskQueue,
    bankTimeoutMs: d.config.payments.bankTimeoutSeconds * 1000,
    qrExpiryMs: d.config.qr.expirySeconds * 1000,
    now: d.now,
  };
}

export type StartPaymentResult =
  | { kind: 'started'; transaction: Transaction }
  | { kind: 'existing'; transaction: Transaction }
  | { kind: 'conflict'; transaction: Transaction }
  /** The orderId is held by an order of another collection (a mandate, a mandate's first debit to come). */
  | { kind: 'taken'; txnId: string };

/**
 * Records the order as Pending, then makes sure its payment workflow exists. Both steps are
 * idempotent, so a repeated request (or a retry after a crash between them) starts the missing
 * workflow and never a second one. An order whose stored outcome is final needs no workflow: its
 * workflow id is free again once the namespace's retention has passed, so only the store decides.
 */
export async function startPayment(deps: StartPaymentDeps, request: PaymentRequest): Promise<StartPaymentResult> {
  const now = deps.now();
  const { transaction, created, heldBy } = await deps.transactions.createPending({
    txnId: newTxnId(now),
    ...request,
    createdAt: now,
  });
  if (!transaction) return { kind: 'taken', txnId: heldBy.txnId };
  if (!created && !sameOrder(transaction, request)) return { kind: 'conflict', transaction };

  if (transaction.status === 'Pending') await ensurePaymentWorkflow(deps, transaction);
  return { kind: created ? 'started' : 'existing', transaction };
}

/**
 * Starts the order's payment workflow unless it exists: running or finished, it is never started
 * twice while Temporal remembers it. Call it only for an order the store holds Pending.
 */
export async function ensurePaymentWorkflow(
  deps: Pick<StartPaymentDeps, 'temporal' | 'taskQueue' | 'bankTimeoutMs' | 'qrExpiryMs' | 'now'> & { realtimeWebhook?: boolean },
  t: Pick<Transaction, 'txnId' | 'merchantIdentifier' | 'orderId' | 'amountPaise' | 'instrument' | 'createdAt' | 'payerDeadline'>,
): Promise<void> {
  // A QR's payer window runs from the order's creation, also when the workflow starts late (the sweep).
  const deadline = t.payerDeadline?.getTime() ?? t.createdAt.getTime() + deps.qrExpiryMs;
  const awaitPayerMs = awaitsPayer(t.instrument) ? Math.max(1, deadline - deps.now().getTime()) : undefined;
  await paymentWorkflowClient(deps.temporal).startUnlessExists(deps.taskQueue, {
    txnId: t.txnId,
    merchantIdentifier: t.merchantIdentifier,
    orderId: t.orderId,
    amountPaise: t.amountPaise,
    instrument: t.instrument,
    bankTimeoutMs: deps.bankTimeoutMs,
    ...(awaitPayerMs !== undefined ? { awaitPayerMs } : {}),
    ...(deps.realtimeWebhook === false ? { realtimeWebhook: false } : {}),
  });
}

/** A repeated request is the same order when what the payer was asked to pay is the same. */
function sameOrder(t: Transaction, r: PaymentRequest): boolean {
  return (
    t.amountPaise === r.amountPaise &&
    t.productDescription === r.productDescription &&
    describeInstrument(t.instrument) === describeInstrument(r.instrument)
  );
}
