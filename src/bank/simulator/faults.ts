import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * Faults on demand. A tester (or the chaos run) posts rules to `POST /admin/faults`; each request
 * the simulator receives takes every rule that matches it (by operation, merchant, id), a rule with
 * `times` only that many times and one with `share` only that share of the time.
 *
 * Transport faults act on the HTTP exchange: `latency` answers late (past the gateway's call
 * timeout it is a bank that does not answer at all), `error` answers 5xx (before or after the bank
 * committed), `drop` commits and then drops the connection without an answer.
 * Outcome faults act on the payment: `silence` answers PENDING and never calls back, `late`
 * answers PENDING and calls back after `ms`, `lostCallback` decides at once but answers PENDING and
 * never calls back (only a status inquiry finds the answer).
 * Callback faults: `duplicateCallback` sends the final callback `copies` more times,
 * `outOfOrderCallback` sends, after the final one, a stale callback saying the opposite,
 * `reorderCallbacks` sends the final callback and its copies each after a random wait up to
 * `maxDelayMs`, so they overtake one another and other payments' callbacks.
 * Inquiry faults (payments): `inquiryPending` answers the first `times` status inquiries PENDING
 * even when the bank has decided; `settleOnInquiry` keeps the payment undecided until the first
 * status inquiry, answers that one PENDING and decides (calling back) `afterMs` later: an approval
 * after the gateway's deadline, which is when the gateway asks.
 * Payout faults (payouts.ts): `refusePayout` refuses the payout (`code` 52 invalid account, 91
 * beneficiary bank down; with `afterMs` it answers PENDING and refuses that much later);
 * `silence` and `late` answer it PENDING (paid after `ms` for `late`). `badSettlementFile` on a
 * settlement file answers it with a field the protocol does not know on each line (`extraField`)
 * or as not found (`missing`).
 * `share` draws from the simulator's random source, seeded when the simulator is (conduct.ts).
 */
export const OPERATIONS = [
  'payment',
  'paymentInquiry',
  'refund',
  'refundInquiry',
  'mandate',
  'notification',
  'debit',
  'debitInquiry',
  'payout',
  'payoutInquiry',
  'settlementFile',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('latency'), ms: z.number().int().min(0).max(120_000) }),
  z.strictObject({
    kind: z.literal('error'),
    status: z.number().int().min(500).max(599).default(503),
    afterCommit: z.boolean().default(false).describe('commit first, then answer 5xx'),
  }),
  z.strictObject({ kind: z.literal('drop'), afterCommit: z.boolean().default(true) }),
  z.strictObject({ kind: z.literal('silence') }),
  z.strictObject({ kind: z.literal('late'), ms: z.number().int().min(0).max(3_600_000) }),
  z.strictObject({ kind: z.literal('lostCallback') }),
  z.strictObject({ kind: z.literal('duplicateCallback'), copies: z.number().int().min(1).max(10).default(1) }),
  z.strictObject({ kind: z.literal('outOfOrderCallback') }),
  z.strictObject({ kind: z.literal('reorderCallbacks'), maxDelayMs: z.number().int().min(1).max(60_000).default(500) }),
  z.strictObject({ kind: z.literal('inquiryPending'), times: z.number().int().min(1).max(100).default(1) }),
  z.strictObject({ kind: z.literal('settleOnInquiry'), afterMs: z.number().int().min(0).max(3_600_000).default(0) }),
  z.strictObject({
    kind: z.literal('refusePayout'),
    code: z.enum(['52', '91']).default('52'),
    afterMs: z.number().int().min(0).max(3_600_000).optional().describe('answer PENDING, refuse this much later'),
  }),
  z.strictObject({ kind: z.literal('badSettlementFile'), form: z.enum(['extraField', 'missing']).default('extraField') }),
]);
export type Fault = z.infer<typeof faultSchema>;

export const faultRuleSchema = z.strictObject({
  match: z
    .strictObject({
      operation: z.union([z.enum(OPERATIONS), z.array(z.enum(OPERATIONS)).min(1)]).optional(),
      merchantIdentifier: z.string().min(1).optional(),
      /** The request's own id: txnId, refundId, mandateId or debitId. */
      id: z.string().min(1).optional(),
      /** The payment a refund or inquiry is about. */
      txnId: z.string().min(1).optional(),
    })
    .default({}),
  fault: faultSchema,
  times: z.number().int().min(1).optional(),
  share: z.number().min(0).max(1).optional(),
});
export type FaultRuleInput = z.input<typeof faultRuleSchema>;
export type FaultRule = z.infer<typeof faultRuleSchema> & { id: string; applied: number };

export interface RequestFacts {
  operation: Operation;
  merchantIdentifier?: string;
  id: string;
  txnId?: string;
}

export class FaultTable {
  private rules: FaultRule[] = [];

  /** `random`: the simulator's random source in [0, 1), which decides rules with a `share`. */
  constructor(private readonly random: () => number = Math.random) {}

  add(input: z.infer<typeof faultRuleSchema>): FaultRule {
    const rule = { ...input, id: `fault-${randomBytes(4).toString('hex')}`, applied: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return [...this.rules];
  }

  remove(id?: string): void {
    this.rules = id === undefined ? [] : this.rules.filter((r) => r.id !== id);
  }

  /**
   * The faults this request meets, at most one of each kind (the first matching rule of that kind,
   * in the order they were added); rules with `times` are used up as they apply.
   */
  take(facts: RequestFacts): Fault[] {
    const faults: Fault[] = [];
    for (const rule of this.rules) {
      if (rule.times !== undefined && rule.applied >= rule.times) continue;
      if (faults.some((f) => f.kind === rule.fault.kind)) continue;
      if (!matches(rule.match, facts)) continue;
      if (rule.share !== undefined && this.random() >= rule.share) continue;
      rule.applied++;
      faults.push(rule.fault);
    }
    return faults;
  }
}

function matches(m: FaultRule['match'], f: RequestFacts): boolean {
  if (m.operation !== undefined) {
    const ops = Array.isArray(m.operation) ? m.operation : [m.operation];
    if (!ops.includes(f.operation)) return false;
  }
  if (m.merchantIdentifier !== undefined && m.merchantIdentifier !== f.merchantIdentifier) return false;
  if (m.id !== undefined && m.id !== f.id) return false;
  if (m.txnId !== undefined && m.txnId !== (f.txnId ?? f.id)) return false;
  return true;
}

export const faultOf = <K extends Fault['kind']>(faults: Fault[], kind: K) =>
  faults.find((f): f is Extract<Fault, { kind: K }> => f.kind === kind);
