import { ApplicationFailure } from '@temporalio/activity';
import { statusForReserved } from '../src/domain/refund';
import type { Transaction } from '../src/domain/transaction';
import { RefundFailure, type RefundRecorded } from '../src/temporal/refund-contract';
import type { OrderRef, TransactionRepository } from '../src/store/transaction-repository';
import { reportLateUpdate, type LateUpdateDeps } from '../src/usecases/report-late-update';
import type { BankConnector, BankRefundAnswer, BankRefundRequest } from '../src/bank/connector';

export interface RefundActivityDeps extends LateUpdateDeps {
  transactions: TransactionRepository;
  bank: BankConnector;
  now: () => Date;
}

export interface RecordRefundInput extends OrderRef {
  merchantRefId: string;
  answer: BankRefundAnswer;
}

/** The change one refund made to its transaction: what a webhook will later report. */
export function createRefundActivities(deps: RefundActivityDeps) {
  const { transactions, bank, now } = deps;
  return {
    async requestBankRefund(request: BankRefundRequest): Promise<BankRefundAnswer> {
      return bank.requestRefund(request);
    },

    /**
     * Settles the refund entry as the bank answered. A FAILED refund gives its amount back to what
     * may be refunded. Read-modify-write under the document's version, so concurrent settlements
     * and new refunds never overwrite each other; a replay finds the entry settled and changes nothing.
     */
    async recordRefundOutcome(input: RecordRefundInput): Promise<RefundRecorded> {
      for (;;) {
        const t = await transactions.findByOrder(input);
        const entry = t?.refunds.find((r) => r.merchantRefId === input.merchantRefId);
        if (!t || !entry) {
          throw ApplicationFailure.nonRetryable(
            `refund ${input.merchantRefId} of order ${input.orderId} does not exist`,
            RefundFailure.REFUND_NOT_FOUND,
          );
        }
        if (entry.status !== 'PENDING') {
          const completedAt = entry.completedAt?.toISOString() ?? null;
          return { applied: false, refundStatus: entry.status, txnStatus: t.status, completedAt };
        }
        const at = now();
        const updated = await transactions.updateIfUnchanged(input, t.version, settle(t, input, at));
        if (updated) {
          const refundStatus = input.answer.approved ? ('SUCCESS' as const) : ('FAILED' as const);
          return { applied: true, refundStatus, txnStatus: updated.status, completedAt: at.toISOString() };
        }
      }
    },

    /** An auto-refund that succeeded joins the merchant's non-real-time webhook (`refunds`). */
    async reportRefundLate(input: OrderRef & { amountPaise: number; completedAt: string | null }): Promise<void> {
      await reportLateUpdate(deps, input.merchantIdentifier, {
        kind: 'refund',
        orderId: input.orderId,
        amountPaise: input.amountPaise,
        at: input.completedAt ?? now().toISOString(),
      });
    },
  };
}

function settle(t: Transaction, input: RecordRefundInput, at: Date) {
  const refunds = t.refunds.map((r) =>
    r.merchantRefId !== input.merchantRefId
      ? r
      : {
          ...r,
          status: input.answer.approved ? ('SUCCESS' as const) : ('FAILED' as const),
          rrn: input.answer.approved ? input.answer.rrn : null,
          completedAt: at,
        },
  );
  // A settled refund is a settleable adjustment: indexed for the settlement engine in the same write.
  if (input.answer.approved) return { set: { refunds, updatedAt: at, adjustedAt: at } };
  const entry = t.refunds.find((r) => r.merchantRefId === input.merchantRefId)!;
  const reserved = (t.refundReservedPaise ?? 0) - entry.amountPaise;
  return { set: { refunds, refundReservedPaise: reserved, status: statusForReserved(t.amountPaise, reserved), updatedAt: at } };
}

export type RefundActivities = ReturnType<typeof createRefundActivities>;
