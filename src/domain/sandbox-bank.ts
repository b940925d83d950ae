import { cardBrand, maskCardNumber } from './card';
import type { PaymentInstrument } from './instrument';
import { MIN_BANK_AMOUNT_PAISE, type Paise } from './money';
import type { PaymentResponseKey } from './response-codes';

/**
 * The sandbox payer and bank (design.md, Sandbox and test instruments): the payer picks the outcome through the instrument.
 * One table per instrument kind; everything about the sandbox is decided here.
 */
export type SandboxBehaviour = 'pay' | 'decline' | 'silent';

/**
 * How a hostile bank delivers an approval (docs/testers/bank-simulator.md, "A bank that behaves
 * like a bank"): `slow` answers a second late, `twice` calls back twice in a shuffled order with a
 * stale contradicting copy after, `inquiryPending` loses its answer and says PENDING to the first
 * status inquiry (final to later ones), `afterDeadline` decides only when the gateway's deadline
 * inquiry comes, answers it PENDING and approves right after it. The bank simulator plays every
 * one; the in-process sandbox, which cannot call back, plays `slow` and `inquiryPending` and treats
 * `afterDeadline` as a bank that never answers.
 */
export type BankConduct = 'slow' | 'twice' | 'inquiryPending' | 'afterDeadline';
export const BANK_CONDUCTS: readonly BankConduct[] = ['slow', 'twice', 'inquiryPending', 'afterDeadline'];
/** How late a `slow` bank answers. */
export const SANDBOX_SLOW_BANK_MS = 1000;

export const SANDBOX_VPAS: Record<string, { behaviour: SandboxBehaviour; bankName: string; conduct?: BankConduct }> = {
  'success@sandbox': { behaviour: 'pay', bankName: 'Sandbox UPI Bank' },
  'failure@sandbox': { behaviour: 'decline', bankName: 'Sandbox UPI Bank' },
  'noanswer@sandbox': { behaviour: 'silent', bankName: 'Sandbox UPI Bank' },
  'slow@sandbox': { behaviour: 'pay', bankName: 'Sandbox UPI Bank', conduct: 'slow' },
  'twice@sandbox': { behaviour: 'pay', bankName: 'Sandbox UPI Bank', conduct: 'twice' },
  'inquirypending@sandbox': { behaviour: 'pay', bankName: 'Sandbox UPI Bank', conduct: 'inquiryPending' },
  'late@sandbox': { behaviour: 'pay', bankName: 'Sandbox UPI Bank', conduct: 'afterDeadline' },
};

/** The conduct a sandbox payer's VPA asks of the bank, if any. */
export const sandboxConductOf = (vpa: string): BankConduct | undefined => SANDBOX_VPAS[vpa.toLowerCase()]?.conduct;

/**
 * Mandate payers (design.md, Sandbox and test instruments): whether the payer approves the
 * mandate, whether the payer's bank accepts a pre-debit notification (`notifyfail@sandbox` makes
 * every notify answer 1110), and how its debits end. Any other VPA declines the mandate.
 */
export const SANDBOX_MANDATE_PAYERS: Record<string, { approves: boolean; acceptsNotify: boolean; debits: 'pay' | 'decline' }> = {
  'success@sandbox': { approves: true, acceptsNotify: true, debits: 'pay' },
  'failure@sandbox': { approves: false, acceptsNotify: true, debits: 'decline' },
  'debitfail@sandbox': { approves: true, acceptsNotify: true, debits: 'decline' },
  'notifyfail@sandbox': { approves: true, acceptsNotify: false, debits: 'pay' },
};
const UNKNOWN_MANDATE_PAYER = { approves: false, acceptsNotify: false, debits: 'decline' } as const;
export const sandboxMandatePayer = (vpa: string) => SANDBOX_MANDATE_PAYERS[vpa.toLowerCase()] ?? UNKNOWN_MANDATE_PAYER;

export const SANDBOX_CARDS: Record<string, { behaviour: SandboxBehaviour; cardType: 'CREDIT' | 'DEBIT'; bankName: string }> = {
  '4012001037141112': { behaviour: 'pay', cardType: 'CREDIT', bankName: 'HDFC Bank' },
  '4000000000000002': { behaviour: 'decline', cardType: 'DEBIT', bankName: 'ICICI Bank' },
};

export const SANDBOX_NETBANKING: Record<string, { behaviour: SandboxBehaviour; bankName: string }> = {
  SBIN: { behaviour: 'pay', bankName: 'State Bank of India' },
  FAIL: { behaviour: 'decline', bankName: 'Sandbox Declining Bank' },
};

// The bank sees only the masked card, so behaviours are also keyed by the masked number.
const CARD_BEHAVIOUR_BY_TOKEN = new Map(
  Object.entries(SANDBOX_CARDS).map(([pan, card]) => [maskCardNumber(pan), card.behaviour]),
);

export type SandboxInstrumentInput = { payerVpa?: string; cardNumber?: string; bankCode?: string };

/**
 * The instrument a sandbox payer presents, or why it is not one of the test instruments.
 * `cardIdOf` turns a PAN into the opaque card id (keyed, so it lives outside the domain).
 */
export function sandboxInstrument(
  input: SandboxInstrumentInput,
  cardIdOf: (pan: string) => string,
): { ok: true; instrument: PaymentInstrument } | { ok: false; problem: string } {
  if (input.payerVpa !== undefined) {
    const vpa = input.payerVpa.toLowerCase();
    const known = SANDBOX_VPAS[vpa];
    if (!known) return { ok: false, problem: `payerVpa must be one of ${Object.keys(SANDBOX_VPAS).join(', ')}` };
    return { ok: true, instrument: { kind: 'UPI', vpa, bankName: known.bankName } };
  }
  if (input.cardNumber !== undefined) {
    const known = SANDBOX_CARDS[input.cardNumber];
    if (!known) return { ok: false, problem: `cardNumber must be a test card: ${Object.keys(SANDBOX_CARDS).join(', ')}` };
    return {
      ok: true,
      instrument: {
        kind: 'CARD',
        cardToken: maskCardNumber(input.cardNumber),
        cardId: cardIdOf(input.cardNumber),
        brand: cardBrand(input.cardNumber),
        cardType: known.cardType,
        bankName: known.bankName,
      },
    };
  }
  if (input.bankCode !== undefined) {
    const code = input.bankCode.toUpperCase();
    const known = SANDBOX_NETBANKING[code];
    if (!known) return { ok: false, problem: `bankCode must be one of ${Object.keys(SANDBOX_NETBANKING).join(', ')}` };
    return { ok: true, instrument: { kind: 'NETBANKING', bankCode: code, bankName: known.bankName } };
  }
  return { ok: false, problem: 'exactly one of payerVpa, cardNumber or bankCode is required' };
}

export type SandboxBankDecision = { answered: false } | { answered: true; approved: boolean; response: PaymentResponseKey };

/** What the sandbox bank does with a payment request. */
export function sandboxBankDecision(instrument: PaymentInstrument, amountPaise: Paise): SandboxBankDecision {
  if (amountPaise < MIN_BANK_AMOUNT_PAISE) return { answered: true, approved: false, response: 'belowMinimum' };
  const behaviour = behaviourOf(instrument);
  if (behaviour === 'silent') return { answered: false };
  return behaviour === 'pay'
    ? { answered: true, approved: true, response: 'success' }
    : { answered: true, approved: false, response: 'declinedByBank' };
}

function behaviourOf(i: PaymentInstrument): SandboxBehaviour {
  switch (i.kind) {
    case 'UPI':
      return SANDBOX_VPAS[i.vpa]?.behaviour ?? 'decline';
    case 'UPI_QR':
    case 'PAYMENT_LINK':
    case 'CHECKOUT':
      return 'silent'; // nobody has paid: there is nothing for the bank to answer
    case 'CARD':
      return CARD_BEHAVIOUR_BY_TOKEN.get(i.cardToken) ?? 'decline';
    case 'NETBANKING':
      return SANDBOX_NETBANKING[i.bankCode]?.behaviour ?? 'decline';
    case 'UPI_MANDATE':
      return sandboxMandatePayer(i.vpa).debits;
  }
}
