import { z } from 'zod';
import type { Paise } from './money';

/**
 * Zaakpay's Split Payment API (`POST /api/v1/splitTxnByAmount`, design.md, Settlements and split
 * payments). Amounts are integer paise, as Zaakpay documents them ("Txn amount in paisa, Integer"),
 * sent as digit strings (its sample) or JSON integers. A merchant is named by
 * `zaakMerchantIdentifier` or `merchantIdentifier`, trimmed as its sample's padded identifiers need:
 * its merchantIdentifier, or with `isCustomIdentifier: true` each sub-merchant by the master's own
 * name for it (given when the operator linked it; the master is always named by its identifier).
 */
/** The answers' codes, every one with HTTP 200 as Zaakpay answers (413, 415, 429 and 503 keep theirs). */
export const SplitCodes = {
  recorded: { code: '100', description: 'Split recorded' },
  merchantUnknown: { code: '101', description: 'Merchant identifier is not valid' },
  checksumMismatch: { code: '180', description: 'Checksum received with request is not equal to what we calculated' },
  orderNotPaid: { code: '190', description: 'OrderId either not processed or Rejected.' },
  requestInvalid: { code: '2070', description: 'The split request is invalid' },
  subMerchantNotLinked: { code: '2071', description: 'A sub-merchant is not linked to this master merchant' },
  sharesDoNotAddUp: { code: '2072', description: 'The shares do not add up to orderAmount' },
  orderAmountDiffers: { code: '2073', description: "orderAmount is not the order's amount" },
  alreadySplit: { code: '2074', description: 'This order was split already; a split is set once' },
  alreadySettled: { code: '2075', description: 'This order is already being settled; it can no longer be split' },
  customIdentifierUnknown: {
    code: '2076',
    description: 'A custom identifier names no sub-merchant the operator linked to this master under that name',
  },
} as const;
export type SplitCode = keyof typeof SplitCodes;

const paise = z.union([
  z.string().regex(/^\d{1,12}$/, 'must be integer paise'),
  z.number().int('must be integer paise').nonnegative().max(1e12),
]);

const participant = z.object({
  zaakMerchantIdentifier: z.string().optional(),
  merchantIdentifier: z.string().optional(),
  merchantAmount: paise,
});

export const splitRequestSchema = z.object({
  orderId: z.string().min(1).max(64),
  orderAmount: paise,
  masterMerchantIdentifier: participant,
  subMerchantIdentifiers: z.array(participant).min(1).max(50),
  isCustomIdentifier: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
});
export type SplitRequest = z.infer<typeof splitRequestSchema>;

/** A master's own name for a sub-merchant: letters, digits and . _ -, as its split requests send it. */
export const CUSTOM_IDENTIFIER_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export type Naming = { zaakMerchantIdentifier?: unknown; merchantIdentifier?: unknown };

/** The merchant an entry names (trimmed), or null when it names none or two different ones. */
export function namedMerchant(p: Naming, pattern = /^[A-Za-z0-9]{1,64}$/): string | null {
  const names = [p.zaakMerchantIdentifier, p.merchantIdentifier]
    .filter((n): n is string => typeof n === 'string')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0 || names.some((n) => n !== names[0])) return null;
  return pattern.test(names[0]) ? names[0] : null;
}

/** The custom identifier an entry names (trimmed), or null when it names none, two, or one not valid. */
export const customNamed = (p: Naming) => namedMerchant(p, CUSTOM_IDENTIFIER_PATTERN);

/** Whether the request names its sub-merchants by the master's custom identifiers. */
export const namesByCustomIdentifier = (r: SplitRequest) => r.isCustomIdentifier === true || r.isCustomIdentifier === 'true';

export interface SplitShares {
  orderId: string;
  orderAmountPaise: Paise;
  /** The master's share first (it may be 0), then each sub-merchant's. */
  shares: { merchantIdentifier: string; amountPaise: Paise }[];
}

/**
 * The request's shares, or why they cannot be: every sub-merchant named once, none the master, each
 * share above 0 (the master's may be 0), the shares adding up to orderAmount.
 */
export function splitShares(
  master: string,
  r: SplitRequest,
  nameOf: (p: Naming) => string | null = namedMerchant,
): SplitShares | { refused: SplitCode; detail?: string } {
  const subs = r.subMerchantIdentifiers.map((s) => ({ name: nameOf(s), amount: Number(s.merchantAmount) }));
  if (subs.some((s) => s.name === null))
    return { refused: 'requestInvalid', detail: 'each sub-merchant needs one zaakMerchantIdentifier or merchantIdentifier' };
  const names = subs.map((s) => s.name!);
  if (new Set(names).size !== names.length) return { refused: 'requestInvalid', detail: 'a sub-merchant is named twice' };
  if (names.includes(master)) return { refused: 'requestInvalid', detail: 'the master cannot also be a sub-merchant' };
  if (subs.some((s) => s.amount === 0))
    return { refused: 'requestInvalid', detail: "a sub-merchant's merchantAmount must be above 0" };
  const orderAmountPaise = Number(r.orderAmount);
  const shares = [
    { merchantIdentifier: master, amountPaise: Number(r.masterMerchantIdentifier.merchantAmount) },
    ...subs.map((s) => ({ merchantIdentifier: s.name!, amountPaise: s.amount })),
  ];
  if (shares.reduce((sum, s) => sum + s.amountPaise, 0) !== orderAmountPaise) return { refused: 'sharesDoNotAddUp' };
  return { orderId: r.orderId, orderAmountPaise, shares };
}

/** Why a sub-merchant link is refused. */
export type LinkRefusal = 'merchantNotFound' | 'masterNotFound' | 'selfLink' | 'masterIsSub' | 'customIdentifierTaken';

/** A merchant's link to its master (null: unlinked), under the master's own name for it. */
export interface SubMerchantLink {
  merchantIdentifier: string;
  masterMerchantIdentifier: string | null;
  customIdentifier: string | null;
}
