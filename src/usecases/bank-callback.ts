import type { Client } from '@temporalio/client';
import type { BankAnswer } from '../bank/connector';
import type { BankCallback, BankCallbackResult } from '../bank/protocol';
import { ApiError } from '../domain/api-errors';
import { debitTxnIdsOf } from '../domain/mandate';
import { mayBecomeDelayedSuccess, type Transaction } from '../domain/transaction';
import type { Logger } from '../logger';
import type { MandateRepository } from '../store/mandate-repository';
import type { ReconciliationRepository } from '../store/reconciliation-repository';
import type { TransactionRepository } from '../store/transaction-repository';
import { offerBankAnswer } from './offer-bank-answer';
import { startReconciliation } from './reconcile';

export interface BankCallbackDeps {
  transactions: TransactionRepository;
  mandates: MandateRepository;
  reconciliations: ReconciliationRepository;
  temporal: Client;
  taskQueue: string;
  logger: Logger;
  now: () => Date;
}

/**
 * A bank's signed callback (POST /bank/v1/callbacks), trusted no further than it checks out: the
 * transaction must be one the gateway holds, of the merchant and amount the callback names, or it
 * is refused (and logged). Then:
 * - a payment still Pending: the answer is offered to its workflow (bankAnswerUpdate), which takes
 *   it while it has not decided; once it decided (or before it started) the transaction is read
 *   again: still Pending (being recorded, or no workflow yet) is answered 503 (2052) so the bank
 *   sends the callback again (design.md, Transactions and states: never accepted and dropped);
 * - a Failure no bank decided (silent bank, expired QR, refused request, a cancelled checkout whose
 *   intent was handed out: mayBecomeDelayedSuccess) that the bank approved: a delayed success,
 *   through the same path as a reconciliation line (non-real-time webhook, auto-refund);
 * - anything already final: nothing changes (a duplicate, or an out-of-order callback that
 *   contradicts the final answer, which is logged);
 * - refunds, mandates and debits are settled by the connector's own calls; their callbacks are
 *   checked and acknowledged.
 */
export async function handleBankCallback(deps: BankCallbackDeps, cb: BankCallback): Promise<BankCallbackResult> {
  switch (cb.type) {
    case 'payment':
      return paymentCallback(deps, cb);
    case 'refund': {
      const t = await byTxnId(deps, cb.txnId, cb);
      const entry = t.refunds.find((r) => `${t.txnId}:${r.merchantRefId}` === cb.refundId);
      if (!entry) throw refuse(deps, cb, 'bankCallbackUnknown', `refund ${cb.refundId} is not a refund of ${cb.txnId}`);
      if (entry.amountPaise !== cb.amountPaise)
        throw refuse(
          deps,
          cb,
          'bankCallbackMismatch',
          `refund ${cb.refundId} is of ${entry.amountPaise} paise, not ${cb.amountPaise}`,
        );
      return 'acknowledged';
    }
    case 'mandate': {
      const mandate = await mandateOf(deps, cb.mandateId);
      if (!mandate) throw refuse(deps, cb, 'bankCallbackUnknown', `no mandate ${cb.mandateId}`);
      return 'acknowledged';
    }
    case 'debit': {
      const mandate = await mandateOf(deps, cb.mandateId);
      if (!mandate) throw refuse(deps, cb, 'bankCallbackUnknown', `no mandate ${cb.mandateId}`);
      // A retry of a debit is its own bank request, `<txnId>R<n>`; a txnId may itself end in R and
      // digits (its time part ends in R, its hex part is all digits), so the exact id is read first.
      const t = await debitOfAttempt(deps, cb);
      if (t.instrument.kind !== 'UPI_MANDATE' || `${t.merchantIdentifier}:${t.instrument.mandateOrderId}` !== cb.mandateId)
        throw refuse(deps, cb, 'bankCallbackMismatch', `debit ${cb.debitId} is not a debit of mandate ${cb.mandateId}`);
      if (t.amountPaise !== cb.amountPaise)
        throw refuse(deps, cb, 'bankCallbackMismatch', `debit ${cb.debitId} is of ${t.amountPaise} paise, not ${cb.amountPaise}`);
      return 'acknowledged';
    }
  }
}

async function paymentCallback(
  deps: BankCallbackDeps,
  cb: Extract<BankCallback, { type: 'payment' }>,
): Promise<BankCallbackResult> {
  const t = cb.orderId
    ? await deps.transactions.findByOrder({ merchantIdentifier: cb.merchantIdentifier, orderId: cb.orderId })
    : await byTxnId(deps, cb.txnId, cb);
  if (!t) throw refuse(deps, cb, 'bankCallbackUnknown', `no order ${cb.orderId} of merchant ${cb.merchantIdentifier}`);
  if (t.txnId !== cb.txnId)
    throw refuse(deps, cb, 'bankCallbackMismatch', `order ${t.orderId} is transaction ${t.txnId}, not ${cb.txnId}`);
  if (t.merchantIdentifier !== cb.merchantIdentifier)
    throw refuse(deps, cb, 'bankCallbackMismatch', `transaction ${t.txnId} belongs to another merchant`);
  if (t.amountPaise !== cb.amountPaise)
    throw refuse(deps, cb, 'bankCallbackMismatch', `transaction ${t.txnId} is of ${t.amountPaise} paise, not ${cb.amountPaise}`);
  if (t.instrument.kind === 'UPI_MANDATE')
    throw refuse(deps, cb, 'bankCallbackMismatch', `transaction ${t.txnId} is a mandate debit`);

  const approved = cb.status === 'APPROVED';
  let current = t;
  if (current.status === 'Pending') {
    const answer: BankAnswer = {
      approved,
      response: approved ? 'success' : cb.responseCode === '13' ? 'belowMinimum' : 'declinedByBank',
      bankRefNum: approved ? cb.bankRefNum : null,
      authCode: approved ? cb.authCode : null,
      ...(cb.card ? { card: cb.card } : {}),
    };
    if (await offerBankAnswer(deps.temporal, current, answer)) return 'delivered';
    // The workflow decided, finished, or has not started (a crash before its start; the sweep starts
    // it): what the store holds now decides.
    const now = await deps.transactions.findByOrder(current);
    if (!now || now.status === 'Pending') {
      deps.logger.info({ txnId: t.txnId, eventId: cb.eventId }, 'bank callback for a payment being decided: refused for a retry');
      throw new ApiError('bankCallbackRetryLater', `transaction ${t.txnId} is still Pending`);
    }
    current = now;
  }
  if (approved && mayBecomeDelayedSuccess(current)) {
    await startReconciliation(
      { reconciliations: deps.reconciliations, temporal: deps.temporal, taskQueue: deps.taskQueue, now: deps.now },
      `txnId,bankRefNum,status,amount\n${t.txnId},${refForCsv(cb.bankRefNum ?? cb.txnId)},SUCCESS,${t.amountPaise}\n`,
    );
    deps.logger.info({ txnId: t.txnId }, 'bank approved a payment no bank had failed: delayed success');
    return 'delayedSuccess';
  }
  if (agrees(current, approved)) return 'unchanged';
  // An out-of-order callback: the bank said otherwise before, and its first final word stands.
  deps.logger.warn(
    { txnId: t.txnId, status: current.status, callbackStatus: cb.status, eventId: cb.eventId },
    'bank callback contradicts a final payment; ignored',
  );
  return 'unchanged';
}

const agrees = (t: Transaction, approved: boolean) => (approved ? t.status !== 'Failure' : t.status === 'Failure');

async function debitOfAttempt(deps: BankCallbackDeps, cb: Extract<BankCallback, { type: 'debit' }>): Promise<Transaction> {
  const ids = debitTxnIdsOf(cb.debitId);
  const found = await deps.transactions.findByTxnIds(ids);
  const t = ids.map((id) => found.find((x) => x.txnId === id)).find((x) => x !== undefined);
  if (!t) throw refuse(deps, cb, 'bankCallbackUnknown', `no transaction ${cb.debitId}`);
  return t;
}

async function byTxnId(deps: BankCallbackDeps, txnId: string, cb: BankCallback): Promise<Transaction> {
  const [t] = await deps.transactions.findByTxnIds([txnId]);
  if (!t) throw refuse(deps, cb, 'bankCallbackUnknown', `no transaction ${txnId}`);
  return t;
}

async function mandateOf(deps: BankCallbackDeps, mandateId: string) {
  const i = mandateId.indexOf(':');
  if (i <= 0) return null;
  return deps.mandates.findByOrder({ merchantIdentifier: mandateId.slice(0, i), orderId: mandateId.slice(i + 1) });
}

function refuse(deps: BankCallbackDeps, cb: BankCallback, kind: 'bankCallbackUnknown' | 'bankCallbackMismatch', why: string) {
  deps.logger.warn({ eventId: cb.eventId, type: cb.type, why }, 'bank callback refused');
  return new ApiError(kind, why);
}

/** A reconciliation line's bankRefNum: at most 40 letters, digits and -. */
const refForCsv = (v: string) => v.replace(/[^0-9A-Za-z-]/g, '').slice(0, 40) || 'bank-callback';
