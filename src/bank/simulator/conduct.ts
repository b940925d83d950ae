import { z } from 'zod';
import { BANK_CONDUCTS, SANDBOX_SLOW_BANK_MS, sandboxConductOf, type BankConduct } from '../../domain/sandbox-bank';
import type { BankInstrument, BankPaymentResponse } from '../protocol';
import type { PaymentEntry } from './books';
import { faultOf, type Fault } from './faults';
import { describeCode } from './outcomes';

/**
 * A bank that behaves like a bank: the hostile conducts of a payment's approval (sandbox-bank.ts,
 * BankConduct), chosen per instrument by the payer's test VPA (`late@sandbox`, ...) or, with
 * `share` > 0, for that share of the other UPI payments at random. The random source is seeded
 * (`seed`), so a run of the same requests in the same order meets the same bank; the fault
 * table's `share` draws from it too.
 *
 * Each conduct is a set of faults (faults.ts) applied to the payment as if a rule had matched it.
 */
export const conductSettingsSchema = z.strictObject({
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  share: z.number().min(0).max(1).default(0),
});
export type ConductSettings = z.input<typeof conductSettingsSchema>;

export const conductFaults: Record<BankConduct, Fault[]> = {
  slow: [{ kind: 'late', ms: SANDBOX_SLOW_BANK_MS }],
  twice: [
    { kind: 'late', ms: 0 },
    { kind: 'duplicateCallback', copies: 1 },
    { kind: 'reorderCallbacks', maxDelayMs: 300 },
    { kind: 'outOfOrderCallback' },
  ],
  inquiryPending: [{ kind: 'lostCallback' }, { kind: 'inquiryPending', times: 1 }],
  afterDeadline: [{ kind: 'settleOnInquiry', afterMs: 0 }],
};

export class BankConductTable {
  private settings = { seed: undefined as number | undefined, share: 0 };
  private next: () => number = Math.random;
  /** The conduct each payment met, and the decisions kept back until an inquiry (settleOnInquiry). */
  private readonly met = new Map<string, { conduct: BankConduct; faults: Fault[] }>();
  private readonly held = new Map<string, { afterMs: number; settle: () => void }>();

  constructor(settings: ConductSettings = {}) {
    this.configure(settings);
  }

  /** Changes the seed (restarting its sequence) and the random share. */
  configure(input: ConductSettings): { seed: number | undefined; share: number } {
    const s = conductSettingsSchema.parse(input);
    this.settings = { seed: s.seed, share: s.share };
    this.next = s.seed === undefined ? Math.random : mulberry32(s.seed);
    return { ...this.settings };
  }

  current() {
    return { ...this.settings };
  }

  /** The simulator's random source in [0, 1). */
  readonly random = () => this.next();

  /** The faults a new payment meets by its conduct: its VPA's, or at random for a share of UPI payments. */
  faultsFor(txnId: string, instrument: BankInstrument): Fault[] {
    if (instrument.type !== 'UPI_COLLECT' && instrument.type !== 'UPI_INTENT') return [];
    let conduct = sandboxConductOf(instrument.vpa);
    if (!conduct && this.settings.share > 0 && this.random() < this.settings.share)
      conduct = BANK_CONDUCTS[Math.floor(this.random() * BANK_CONDUCTS.length)]!;
    if (!conduct) return [];
    const faults = conductFaults[conduct];
    this.met.set(txnId, { conduct, faults });
    return faults;
  }

  conductOf(txnId: string): BankConduct | undefined {
    return this.met.get(txnId)?.conduct;
  }

  /** settleOnInquiry: the payment's decision waits for the first status inquiry, then `afterMs`. */
  hold(txnId: string, afterMs: number, settle: () => void): void {
    this.held.set(txnId, { afterMs, settle });
  }

  /**
   * What a status inquiry of this payment answers (`entry.inquiries` already counts it). A held
   * decision is taken `afterMs` after this inquiry, which is answered PENDING; `inquiryPending`
   * hides a decided answer: the payment's conduct for its first `times` inquiries, a rule on
   * `paymentInquiry` (in `inquiryFaults`) for every inquiry it applies to.
   */
  inquiryAnswer(entry: PaymentEntry, inquiryFaults: Fault[], later: (ms: number, work: () => void) => void): BankPaymentResponse {
    const txnId = entry.request.txnId;
    const held = this.held.get(txnId);
    if (held) {
      this.held.delete(txnId);
      later(held.afterMs, held.settle);
      return entry.answer;
    }
    const byConduct = faultOf(this.met.get(txnId)?.faults ?? [], 'inquiryPending');
    const hide = faultOf(inquiryFaults, 'inquiryPending') !== undefined || (byConduct && entry.inquiries <= byConduct.times);
    if (hide && (entry.answer.status === 'APPROVED' || entry.answer.status === 'DECLINED')) {
      return {
        ...entry.answer,
        status: 'PENDING',
        responseCode: '09',
        responseDescription: describeCode('09'),
        bankRefNum: null,
        authCode: null,
      };
    }
    return entry.answer;
  }

  clear(): void {
    this.met.clear();
    this.held.clear();
  }
}

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
