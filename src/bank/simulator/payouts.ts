import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { istDate } from '../../domain/ist-time';
import { PAYOUT_RESPONSE_CODES, payoutRequestSchema, type BankPayoutResponse, type BankSettlementFile } from '../protocol';
import { faultOf, type Fault, type FaultTable, type RequestFacts } from './faults';
import { referenceDigits } from './outcomes';

/**
 * The bank's payouts (POST /v1/payouts, GET /v1/payouts/:payoutId) and its daily settlement file
 * (GET /v1/settlement-files/:date): the payouts it paid on an IST date, with their UTRs. A payoutId
 * is the idempotency key: a repeat answers the first payout, the same id with other contents is a
 * 409. An account number starting with 000 is refused as invalid (a test account); faults refuse
 * (`refusePayout`, at once or after a PENDING answer), delay (`late`) or hold (`silence`) a payout
 * on demand, and spoil a settlement file (`badSettlementFile`).
 */
export interface PayoutEntry {
  request: z.infer<typeof payoutRequestSchema>;
  answer: BankPayoutResponse;
  /** The IST date it was paid on (its settlement file), once PAID. */
  paidOn?: string;
  requests: number;
}

export interface PayoutRouteDeps {
  payouts: Map<string, PayoutEntry>;
  faults: FaultTable;
  readSigned: <S extends z.ZodType>(ctx: Context, schema: S | null) => Promise<z.infer<S>>;
  exchange: (ctx: Context, facts: RequestFacts, faults: Fault[], commit: () => unknown) => Promise<void>;
  later: (ms: number, work: () => void) => void;
  notFound: (message: string) => Error;
  conflict: (message: string) => Error;
}

export function payoutRoutes(router: Router, d: PayoutRouteDeps): void {
  const answer = (
    body: z.infer<typeof payoutRequestSchema>,
    status: BankPayoutResponse['status'],
    code: keyof typeof PAYOUT_RESPONSE_CODES,
  ) => ({
    payoutId: body.payoutId,
    amountPaise: body.amountPaise,
    status,
    utr: status === 'PAID' ? `SIMU${referenceDigits(body.payoutId).slice(0, 12)}` : null,
    responseCode: code,
    responseDescription: PAYOUT_RESPONSE_CODES[code],
  });
  const pay = (entry: PayoutEntry) => {
    entry.answer = answer(entry.request, 'PAID', '00');
    entry.paidOn = istDate(new Date());
  };

  function createPayout(body: z.infer<typeof payoutRequestSchema>, faults: Fault[]): BankPayoutResponse {
    const existing = d.payouts.get(body.payoutId);
    if (existing) {
      for (const k of ['merchantIdentifier', 'amountPaise', 'ifsc', 'accountNumber'] as const)
        if (existing.request[k] !== body[k]) throw d.conflict(`payoutId was sent before with another ${k}`);
      existing.requests++;
      return existing.answer;
    }
    const refuse = faultOf(faults, 'refusePayout');
    const late = faultOf(faults, 'late');
    const entry: PayoutEntry = { request: body, answer: answer(body, 'PENDING', '09'), requests: 1 };
    d.payouts.set(body.payoutId, entry);
    if (refuse?.afterMs !== undefined) d.later(refuse.afterMs, () => void (entry.answer = answer(body, 'REFUSED', refuse.code)));
    else if (refuse) entry.answer = answer(body, 'REFUSED', refuse.code);
    else if (body.accountNumber.startsWith('000')) entry.answer = answer(body, 'REFUSED', '52');
    else if (late) d.later(late.ms, () => pay(entry));
    else if (!faultOf(faults, 'silence')) pay(entry);
    return entry.answer;
  }

  router.post('/v1/payouts', async (ctx) => {
    const body = await d.readSigned(ctx, payoutRequestSchema);
    const facts = { operation: 'payout' as const, merchantIdentifier: body.merchantIdentifier, id: body.payoutId };
    const f = d.faults.take(facts);
    await d.exchange(ctx, facts, f, () => createPayout(body, f));
  });
  router.get('/v1/payouts/:payoutId', async (ctx) => {
    await d.readSigned(ctx, null);
    const payoutId = ctx.params.payoutId;
    const entry = d.payouts.get(payoutId);
    const facts = { operation: 'payoutInquiry' as const, merchantIdentifier: entry?.request.merchantIdentifier, id: payoutId };
    const f = d.faults.take(facts);
    await d.exchange(ctx, facts, f, () => {
      if (!entry) throw d.notFound(`no payout ${payoutId}`);
      return entry.answer;
    });
  });
  router.get('/v1/settlement-files/:date', async (ctx) => {
    await d.readSigned(ctx, null);
    const date = ctx.params.date;
    const facts = { operation: 'settlementFile' as const, id: date };
    const f = d.faults.take(facts);
    const bad = faultOf(f, 'badSettlementFile');
    await d.exchange(ctx, facts, f, (): BankSettlementFile => {
      if (bad?.form === 'missing') throw d.notFound(`no settlement file of ${date}`);
      return {
        date,
        payouts: [...d.payouts.values()]
          .filter((p) => p.paidOn === date && p.answer.utr)
          .map((p) => ({
            payoutId: p.request.payoutId,
            merchantIdentifier: p.request.merchantIdentifier,
            amountPaise: p.request.amountPaise,
            utr: p.answer.utr!,
            ...(bad ? { valueDate: date } : {}),
          })),
      };
    });
  });
}
