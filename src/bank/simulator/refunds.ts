import type { z } from 'zod';
import type { refundRequestSchema } from '../protocol';
import type { RefundEntry } from './books';
import { faultOf, type Fault } from './faults';
import { decideRefund, describeCode, referenceDigits } from './outcomes';
import { requireSame, type SimulatorDesk } from './desk';

/** The simulator's refunds: held from the request, settled at once or later, with their callback. */
export function refundDesk(d: SimulatorDesk) {
  const { books, log, later, notify, refundDelayMs } = d;

  function createRefund(body: z.infer<typeof refundRequestSchema>, requestFaults: Fault[]) {
    const existing = books.refunds.get(body.refundId);
    if (existing) {
      requireSame('refundId', existing.request, body, ['txnId', 'amountPaise']);
      existing.requests++;
      return existing.answer;
    }
    const refundable = books.refundableOf(body.txnId);
    const verdict =
      books.payments.get(body.txnId)?.answer.status === 'APPROVED'
        ? decideRefund(body.reason, body.amountPaise, refundable)
        : { approved: false, code: '05' as const };
    const rrn = referenceDigits(body.refundId).slice(0, 12);
    const final = {
      refundId: body.refundId,
      txnId: body.txnId,
      amountPaise: body.amountPaise,
      status: verdict.approved ? ('APPROVED' as const) : ('DECLINED' as const),
      responseCode: verdict.code,
      responseDescription: describeCode(verdict.code),
      rrn: verdict.approved ? rrn : null,
    };
    const entry: RefundEntry = {
      request: body,
      merchantIdentifier: books.merchantOf(body.txnId) ?? '',
      answer: {
        ...final,
        status: 'PENDING' as const,
        responseCode: '09' as const,
        responseDescription: describeCode('09'),
        rrn: null,
      },
      requests: 1,
    };
    // The amount is held from now on (PENDING counts against what may be refunded).
    books.refunds.set(body.refundId, entry);
    const delay = faultOf(requestFaults, 'late')?.ms ?? refundDelayMs;
    const settle = () => {
      if (faultOf(requestFaults, 'silence')) return;
      entry.answer = final;
      log(`refund ${body.refundId} ${final.status} (${body.amountPaise} paise of ${body.txnId})`);
      if (delay > 0 || faultOf(requestFaults, 'duplicateCallback') || faultOf(requestFaults, 'outOfOrderCallback')) {
        notify(
          body.callbackUrl,
          {
            type: 'refund',
            eventId: `evt-refund-${body.refundId}`,
            refundId: body.refundId,
            txnId: body.txnId,
            amountPaise: body.amountPaise,
            status: final.status,
            rrn: final.rrn,
          },
          requestFaults,
        );
      }
    };
    if (delay > 0 || faultOf(requestFaults, 'silence')) {
      later(delay, settle);
      return entry.answer;
    }
    settle();
    return entry.answer;
  }

  return { createRefund };
}

export type RefundDesk = ReturnType<typeof refundDesk>;
