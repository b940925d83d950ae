import { MandateResponse, SANDBOX_MANDATE_BANK, type MandateState } from '../src/domain/mandate';
import type { PaymentOutcome } from '../src/domain/transaction';
import type { MandateRepository } from '../src/store/mandate-repository';
import type { TransactionRepository } from '../src/store/transaction-repository';
import { recordPendingOutcome } from './payment-activities';
import type { BankAnswer, BankConnector, MandateRef } from './bank-connector';

export interface MandateActivityDeps {
  mandates: MandateRepository;
  transactions: TransactionRepository;
  bank: BankConnector;
  now: () => Date;
}

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
export type MandateDebitResult = 'executed' | 'executionFailed' | 'executionLapsed' | 'executionCancelled';

export function createMandateActivities({ mandates, transactions, bank, now }: MandateActivityDeps) {
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

export type MandateActivities = ReturnType<typeof createMandateActivities>;
