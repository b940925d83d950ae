import { z } from 'zod';
import type { CardBrand } from './card';
import type { PaymentInstrument } from './instrument';
import type { Paise } from './money';

/** A fee: a percentage in basis points (199 = 1.99 %) of the amount plus a fixed fee in paise. */
export interface FeeRate {
  percentBps: number;
  fixedPaise: Paise;
}

export type CardKind = 'debit' | 'credit';

/**
 * A merchant's pricing plan: a rate per instrument, card rates per network and debit/credit
 * (`networks` overrides `card` for the networks it names), and whether a refund returns the fee.
 */
export interface FeePlan {
  upi: FeeRate;
  card: Record<CardKind, FeeRate>;
  networks?: Partial<Record<CardBrand, Partial<Record<CardKind, FeeRate>>>>;
  netbanking: FeeRate;
  wallet: FeeRate;
  refundReturnsFee: boolean;
}

/** GST on the gateway's fee, in percent (design.md, Settlements and split payments). */
export const GST_PERCENT = 18;

const rate = (percentBps: number, fixedPaise = 0): FeeRate => ({ percentBps, fixedPaise });

/** The plan a merchant without its own has, unless configuration says otherwise (SETTLEMENT_FEE_PLAN). */
export const DEFAULT_FEE_PLAN: FeePlan = {
  upi: rate(0),
  card: { debit: rate(40), credit: rate(190) },
  networks: { AMEX: { credit: rate(300) }, RUPAY: { debit: rate(0) } },
  netbanking: rate(190),
  wallet: rate(190),
  refundReturnsFee: false,
};

/** `n * num / den` rounded half-up to an integer, for non-negative integers (exact below 2^53). */
export function mulDivHalfUp(n: number, num: number, den: number): number {
  return Math.floor((n * num * 2 + den) / (den * 2));
}

/** The rate that applies to a payment made with `instrument`. */
export function feeRateFor(plan: FeePlan, instrument: PaymentInstrument): FeeRate {
  switch (instrument.kind) {
    case 'CARD': {
      const kind: CardKind = instrument.cardType === 'CREDIT' ? 'credit' : 'debit';
      return plan.networks?.[instrument.brand]?.[kind] ?? plan.card[kind];
    }
    case 'NETBANKING':
      return plan.netbanking;
    case 'UPI':
    case 'UPI_MANDATE':
    case 'UPI_QR':
      return plan.upi;
    // An order still awaiting its payer has no instrument yet; a paid one carries the payer's.
    case 'PAYMENT_LINK':
    case 'CHECKOUT':
      return plan.upi;
  }
}

/**
 * The fee and its GST on one payment of `amountPaise`: fee = percentage of the amount rounded
 * half-up to the paisa, plus the fixed fee; tax = 18 % of the fee, rounded half-up.
 */
export function saleFee(plan: FeePlan, instrument: PaymentInstrument, amountPaise: Paise): { feePaise: Paise; taxPaise: Paise } {
  const r = feeRateFor(plan, instrument);
  const feePaise = mulDivHalfUp(amountPaise, r.percentBps, 10_000) + r.fixedPaise;
  return { feePaise, taxPaise: mulDivHalfUp(feePaise, GST_PERCENT, 100) };
}

/**
 * What a refund returns of its payment's fee and tax when the plan says refunds return the fee:
 * the share of the sale's fee for what is refunded, computed on the running total of refunds, so
 * refunds adding up to the whole amount return exactly the whole fee and tax. Zero otherwise.
 */
export function refundReturnedFee(
  plan: Pick<FeePlan, 'refundReturnsFee'>,
  sale: { amountPaise: Paise; feePaise: Paise; taxPaise: Paise },
  refundedBeforePaise: Paise,
  refundPaise: Paise,
): { feePaise: Paise; taxPaise: Paise } {
  if (!plan.refundReturnsFee || sale.amountPaise <= 0) return { feePaise: 0, taxPaise: 0 };
  const share = (total: Paise, upTo: Paise) => mulDivHalfUp(total, upTo, sale.amountPaise);
  const after = refundedBeforePaise + refundPaise;
  return {
    feePaise: share(sale.feePaise, after) - share(sale.feePaise, refundedBeforePaise),
    taxPaise: share(sale.taxPaise, after) - share(sale.taxPaise, refundedBeforePaise),
  };
}

/**
 * What the refunds of a sale settled before the one at `index` add up to, in the order they
 * settled (completedAt, then their place): the running total refundReturnedFee starts from. The
 * order a refund was asked in is not the order the bank answers in; counting in settling order, a
 * settled refund's predecessors never change afterwards (a later one settles later), so the
 * returns of refunds adding up to the whole amount add up to exactly the fee charged.
 */
export function refundedBeforePaise(
  refunds: readonly { amountPaise: Paise; status: string; completedAt?: Date | null }[],
  index: number,
): Paise {
  const at = (i: number) => refunds[i].completedAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const before = (i: number) => at(i) < at(index) || (at(i) === at(index) && i < index);
  return refunds.reduce((sum, r, i) => sum + (i !== index && r.status === 'SUCCESS' && before(i) ? r.amountPaise : 0), 0);
}

const feeRateSchema = z.strictObject({
  percentBps: z.number().int().min(0).max(10_000).describe('percentage in basis points: 199 = 1.99 %'),
  fixedPaise: z.number().int().min(0).max(100_000).describe('fixed fee in paise'),
});
const cardRatesSchema = z.strictObject({ debit: feeRateSchema, credit: feeRateSchema });

/** A fee plan as an operator sends it (ops API, CLI) or configures the default (SETTLEMENT_FEE_PLAN). */
export const feePlanSchema = z.strictObject({
  upi: feeRateSchema,
  card: cardRatesSchema,
  networks: z
    .partialRecord(z.enum(['VISA', 'MASTERCARD', 'RUPAY', 'AMEX', 'UNKNOWN']), cardRatesSchema.partial())
    .optional()
    .describe('card rates of one network, overriding `card`'),
  netbanking: feeRateSchema,
  wallet: feeRateSchema,
  refundReturnsFee: z.boolean(),
}) satisfies z.ZodType<FeePlan>;

/** The fee plan a merchant's settlements use: its own, or the configuration's default. */
export interface MerchantFeePlan {
  source: 'merchant' | 'default';
  feePlan: FeePlan;
}
