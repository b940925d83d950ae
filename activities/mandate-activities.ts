import { ApplicationFailure } from '@temporalio/activity';
import { MandateFailure } from '../src/temporal/mandate-contract';
import type { Client } from '@temporalio/client';
import { MandateResponse, SANDBOX_MANDATE_BANK, type MandateState } from '../src/domain/mandate';
import { peakWindowAt } from '../src/domain/peak-windows';
import type { PaymentOutcome } from '../src/domain/transaction';
import type { MandateRepository } from '../src/store/mandate-repository';
import type { OrderRef, TransactionRepository } from '../src/store/transaction-repository';
import { mandateDebitWorkflowClient } from '../src/temporal/mandate-debit-client';
import type { MandateDebitInput, MandateDebitResult } from '../src/temporal/mandate-debit-contract';
import { recordPendingOutcome } from './payment-activities';
import type { BankAnswer, BankConnector, BankPaymentRequest, BankReply, MandateRef } from '../src/bank/connector';

export interface MandateActivityDeps {
  mandates: MandateRepository;
  transactions: TransactionRepository;
  bank: BankConnector;
  now: () => Date;
  temporal: Client;
  taskQueue: string;
}

/**
 * How long a debit attempt holds its mandate's end back at most (claimDebitAtBank): longer than one
 * bank call may take (the activity's 30 s start-to-close timeout), so only a dead worker's runs out.
 */
const DEBIT_AT_BANK_LEASE_MS = 60_000;

/** A debit attempt: the bank's reply, or no call at all because the mandate is no longer ACTIVE. */
export type MandateDebitReply = { kind: 'sent'; reply: BankReply } | { kind: 'mandateEnded' };

export interface NewMandateDebit {
  merchantIdentifier: string;
  mandateOrderId: string;
  orderId: string;
  txnId: string;
  amountPaise: number;
  productDescription: string;
  payerVpa: string;
  executeAtMs: number;
}

/** How a mandate debit ended: the contract's 1111/1112, or the gateway's lapsed and cancelled codes. */
export type { MandateDebitResult };

export function createMandateActivities(deps: MandateActivityDeps) {
  return {
    ...bankDebitActivities(deps),
    ...debitWorkflowActivities(deps),
    ...mandateRecordActivities(deps),
  };
}

/** A debit attempt at the bank, fenced against the mandate's end. */
function bankDebitActivities({ mandates, bank, now }: MandateActivityDeps) {
  return {
    /**
     * One debit attempt at the bank, made only while its mandate is ACTIVE in the store (what a
     * revoke commits before it is answered) and, for a merchant-initiated debit, outside the peak
     * windows: an attempt Temporal retries into a window (the bank was away) fails again with a
     * retry delay to the window's end, so the bank is called then. Every attempt re-checks both.
     */
    async requestMandateDebit(input: { request: BankPaymentRequest; offPeak: boolean }): Promise<MandateDebitReply> {
      const { request } = input;
      if (request.instrument.kind !== 'UPI_MANDATE') throw new Error('requestMandateDebit takes UPI_MANDATE debits only');
      const at = now();
      const window = input.offPeak ? peakWindowAt(at) : null;
      if (window) {
        throw ApplicationFailure.create({
          type: MandateFailure.PEAK_WINDOW,
          message: `no mandate debit inside the peak window that ends at ${window.end.toISOString()}`,
          nextRetryDelay: window.end.getTime() - at.getTime(),
        });
      }
      const mandate = mandateOf({
        merchantIdentifier: request.merchantIdentifier,
        mandateOrderId: request.instrument.mandateOrderId,
      });
      const until = new Date(at.getTime() + DEBIT_AT_BANK_LEASE_MS);
      if (!(await mandates.claimDebitAtBank(mandate, request.txnId, until))) return { kind: 'mandateEnded' };
      try {
        return { kind: 'sent', reply: await bank.requestPayment(request) };
      } finally {
        await mandates.releaseDebitAtBank(mandate, request.txnId);
      }
    },

    /**
     * Waits (by failing with a short retry delay) until no debit attempt marked before the mandate's
     * end is still at the bank, so a revoke is answered only once no debit can follow it.
     */
    async awaitNoDebitAtBank(order: OrderRef): Promise<void> {
      const at = now();
      const until = await mandates.latestDebitAtBank(order, at);
      if (!until) return;
      throw ApplicationFailure.create({
        type: MandateFailure.DEBIT_AT_BANK,
        message: 'a debit attempt under this mandate is still at the bank',
        nextRetryDelay: Math.min(1_000, until.getTime() - at.getTime()),
      });
    },
  };
}

/** The notified debits' own workflows: started, carried to a next run, cancelled. */
function debitWorkflowActivities({ transactions, temporal, taskQueue }: MandateActivityDeps) {
  return {
    /**
     * Starts a notified debit's own workflow (not a child: it outlives the mandate's run when that
     * continues as new, and the time-skipping test server holds its clock still when a child closes
     * after its parent). A repeated start finds it started and adds nothing.
     */
    async startMandateDebit(input: MandateDebitInput): Promise<void> {
      await mandateDebitWorkflowClient(temporal).startUnlessExists(taskQueue, input);
    },

    /** Of these debits, those that may still run (their transaction is Pending): what a next run carries. */
    async pendingMandateDebits(input: { merchantIdentifier: string; orderIds: string[] }): Promise<string[]> {
      return stillPending(transactions, input.merchantIdentifier, input.orderIds);
    },

    /**
     * Asks each of these debits still Pending to stop (the mandate ended): each records 1124 unless
     * its attempt is at the bank already. One that closed meanwhile has nothing to cancel.
     */
    async cancelMandateDebits(input: { merchantIdentifier: string; orderIds: string[] }): Promise<void> {
      for (const orderId of await stillPending(transactions, input.merchantIdentifier, input.orderIds)) {
        await mandateDebitWorkflowClient(temporal).cancelIfRunning({ merchantIdentifier: input.merchantIdentifier, orderId });
      }
    },
  };
}

/** The payer's bank asked, and the mandate and its debits recorded in the store. */
function mandateRecordActivities({ mandates, transactions, bank, now }: MandateActivityDeps) {
  return {
    async requestMandateApproval(input: { txnId: string; payerVpa: string } & MandateRef): Promise<{ approved: boolean }> {
      return bank.requestMandateApproval(input);
    },

    async notifyMandateDebit(input: { txnId: string; payerVpa: string; amountPaise: number; executeAtMs: number } & MandateRef) {
      return bank.notifyMandateDebit({ ...input, executeAt: new Date(input.executeAtMs) });
    },

    /** Moves the mandate's projection forward; a replay finds it moved and changes nothing. */
    async recordMandateState(input: { merchantIdentifier: string; orderId: string; state: MandateState; from: MandateState[] }) {
      await mandates.setState(input, input.state, input.from, now());
    },

    /**
     * The debit's Pending transaction (status API, ledger, webhooks see it like any order); `ours`
     * is false when another order holds its orderId already.
     */
    async createMandateDebit(d: NewMandateDebit): Promise<{ ours: boolean }> {
      const at = now();
      const { transaction } = await transactions.createPending({
        txnId: d.txnId,
        merchantIdentifier: d.merchantIdentifier,
        orderId: d.orderId,
        amountPaise: d.amountPaise,
        productDescription: d.productDescription,
        buyerName: null,
        buyerEmail: null,
        ipAddress: null,
        instrument: { kind: 'UPI_MANDATE', vpa: d.payerVpa, bankName: SANDBOX_MANDATE_BANK, mandateOrderId: d.mandateOrderId },
        executeAt: new Date(d.executeAtMs),
        createdAt: at,
      });
      return { ours: transaction?.txnId === d.txnId };
    },

    /** Records the debit's end on its transaction, once; replays return the stored status. */
    async recordMandateDebitOutcome(input: {
      merchantIdentifier: string;
      orderId: string;
      txnId: string;
      result: MandateDebitResult;
      answer: BankAnswer | null;
    }): Promise<{ status: string; applied: boolean }> {
      const code = MandateResponse[input.result];
      const outcome: PaymentOutcome = {
        status: input.result === 'executed' ? 'Success' : 'Failure',
        responseCode: code.code,
        responseDescription: code.description,
        bankRefNum: input.answer?.bankRefNum ?? null,
        authCode: input.answer?.authCode ?? null,
        markedFailedByService: false,
      };
      return recordPendingOutcome(transactions, input, outcome, now());
    },
  };
}

const mandateOf = (r: { merchantIdentifier: string; mandateOrderId: string }): OrderRef => ({
  merchantIdentifier: r.merchantIdentifier,
  orderId: r.mandateOrderId,
});

/** The merchant's debits among `orderIds` whose transaction is still Pending: those that may still run. */
async function stillPending(
  transactions: TransactionRepository,
  merchantIdentifier: string,
  orderIds: string[],
): Promise<string[]> {
  const pending = new Set(
    (await transactions.findByOrderIds(merchantIdentifier, orderIds)).filter((t) => t.status === 'Pending').map((t) => t.orderId),
  );
  return orderIds.filter((id) => pending.has(id));
}

export type MandateActivities = ReturnType<typeof createMandateActivities>;
