import type { z } from 'zod';
import type { BankResponseCode, debitRequestSchema, mandateRequestSchema, notificationRequestSchema } from '../protocol';
import type { DebitEntry } from './books';
import { faultOf, type Fault } from './faults';
import { decideDebit, decideMandate, describeCode, referenceDigits } from './outcomes';
import { HttpProblem, requireSame, type SimulatorDesk } from './desk';

/** The simulator's UPI AutoPay: mandates, pre-debit notifications and debits under a mandate. */
export function mandateDesk(d: SimulatorDesk) {
  const { books, log, later, notify } = d;

  function createDebit(mandateId: string, body: z.infer<typeof debitRequestSchema>, requestFaults: Fault[]) {
    const mandate = books.mandates.get(mandateId);
    if (!mandate) throw new HttpProblem(404, 'NOT_FOUND', `no mandate ${mandateId}`);
    const existing = books.debits.get(body.debitId);
    if (existing) {
      requireSame('debitId', existing.request, body, ['merchantIdentifier', 'amountPaise']);
      if (existing.mandateId !== mandateId)
        throw new HttpProblem(409, 'IDEMPOTENCY_CONFLICT', `debitId ${body.debitId} belongs to another mandate`);
      existing.requests++;
      return existing.answer;
    }
    const verdict =
      mandate.answer.status === 'APPROVED'
        ? decideDebit(mandate.request.payerVpa, body.amountPaise)
        : { approved: false, code: '05' as const };
    const digits = referenceDigits(body.debitId);
    const final = {
      debitId: body.debitId,
      mandateId,
      amountPaise: body.amountPaise,
      status: verdict.approved ? ('APPROVED' as const) : ('DECLINED' as const),
      responseCode: verdict.code,
      responseDescription: describeCode(verdict.code),
      bankRefNum: verdict.approved ? digits.slice(0, 12) : null,
      authCode: verdict.approved ? digits.slice(12, 18) : null,
    };
    const entry: DebitEntry = {
      mandateId,
      request: body,
      answer: {
        ...final,
        status: 'PENDING' as const,
        responseCode: '09' as const,
        responseDescription: describeCode('09'),
        bankRefNum: null,
        authCode: null,
      },
      requests: 1,
    };
    books.debits.set(body.debitId, entry);
    const late = faultOf(requestFaults, 'late');
    const settle = () => {
      entry.answer = final;
      log(`debit ${body.debitId} ${final.status} (${body.amountPaise} paise under ${mandateId})`);
      if (late || faultOf(requestFaults, 'duplicateCallback') || faultOf(requestFaults, 'outOfOrderCallback')) {
        notify(
          body.callbackUrl,
          {
            type: 'debit',
            eventId: `evt-debit-${body.debitId}`,
            mandateId,
            debitId: body.debitId,
            amountPaise: body.amountPaise,
            status: final.status,
            bankRefNum: final.bankRefNum,
          },
          requestFaults,
        );
      }
    };
    if (faultOf(requestFaults, 'silence')) return entry.answer;
    if (late) {
      later(late.ms, settle);
      return entry.answer;
    }
    settle();
    return entry.answer;
  }

  return {
    createMandate: (body: z.infer<typeof mandateRequestSchema>) => createMandate(d, body),
    notifyDebit: (mandateId: string, body: z.infer<typeof notificationRequestSchema>) => notifyDebit(d, mandateId, body),
    createDebit,
  };
}

export type MandateDesk = ReturnType<typeof mandateDesk>;

function createMandate({ books, log }: SimulatorDesk, body: z.infer<typeof mandateRequestSchema>) {
  const existing = books.mandates.get(body.mandateId);
  if (existing) {
    requireSame('mandateId', existing.request, body, ['merchantIdentifier', 'payerVpa']);
    existing.requests++;
    return existing.answer;
  }
  const approved = decideMandate(body.payerVpa).approves;
  const code: BankResponseCode = approved ? '00' : '05';
  const answer = {
    mandateId: body.mandateId,
    status: approved ? ('APPROVED' as const) : ('DECLINED' as const),
    responseCode: code,
    responseDescription: describeCode(code),
  };
  books.mandates.set(body.mandateId, { request: body, answer, requests: 1 });
  log(`mandate ${body.mandateId} ${answer.status}`);
  return answer;
}

function notifyDebit({ books }: SimulatorDesk, mandateId: string, body: z.infer<typeof notificationRequestSchema>) {
  const mandate = books.mandates.get(mandateId);
  if (!mandate) throw new HttpProblem(404, 'NOT_FOUND', `no mandate ${mandateId}`);
  const existing = books.notifications.get(body.notificationId);
  if (existing) {
    if (existing.mandateId !== mandateId || existing.amountPaise !== body.amountPaise) {
      throw new HttpProblem(409, 'IDEMPOTENCY_CONFLICT', `notificationId ${body.notificationId} was sent with other contents`);
    }
    existing.requests++;
    return existing.answer;
  }
  const accepted = mandate.answer.status === 'APPROVED' && decideMandate(mandate.request.payerVpa).acceptsNotify;
  const answer = {
    notificationId: body.notificationId,
    mandateId,
    status: accepted ? ('ACCEPTED' as const) : ('REFUSED' as const),
  };
  books.notifications.set(body.notificationId, {
    mandateId,
    amountPaise: body.amountPaise,
    executeAt: body.executeAt,
    answer,
    requests: 1,
  });
  return answer;
}
