import { createHash } from 'node:crypto';
import { cardBrand, maskCardNumber } from '../../domain/card';
import { MIN_BANK_AMOUNT_PAISE } from '../../domain/money';
import { SANDBOX_FAIL_REASON } from '../../domain/refund';
import {
  SANDBOX_CARDS,
  SANDBOX_NETBANKING,
  SANDBOX_VPAS,
  sandboxMandatePayer,
  type SandboxBehaviour,
} from '../../domain/sandbox-bank';
import { BANK_RESPONSE_CODES, type BankInstrument, type BankResponseCode } from '../protocol';

/**
 * What the simulated bank decides: the sandbox's outcomes (design.md, Sandbox and test instruments), chosen by the
 * payer's instrument, so the simulator and the in-process sandbox agree on every test instrument.
 */
export type PaymentDecision =
  | { kind: 'final'; approved: boolean; code: BankResponseCode }
  | { kind: 'silent' }
  /** Card and net banking: the payer authenticates on the bank's page first. */
  | { kind: 'redirect' };

export function decidePayment(instrument: BankInstrument, amountPaise: number): PaymentDecision {
  if (amountPaise < MIN_BANK_AMOUNT_PAISE) return { kind: 'final', approved: false, code: '13' };
  switch (instrument.type) {
    case 'UPI_COLLECT':
    case 'UPI_INTENT':
      return fromBehaviour(SANDBOX_VPAS[instrument.vpa.toLowerCase()]?.behaviour ?? 'decline');
    case 'CARD':
    case 'NETBANKING':
      return { kind: 'redirect' };
  }
}

/**
 * The payer's choice on the bank page: a card number typed there, or (net banking) approving at
 * the bank. `hint` is what the sandbox payer declared to the gateway (the masked test card or the
 * bank code), used when no browser is involved.
 */
export function decideRedirect(
  instrument: BankInstrument,
  payer: { cardNumber?: string; cancel?: boolean } = {},
): { approved: boolean; code: BankResponseCode; card?: CardSeen } {
  if (payer.cancel) return { approved: false, code: '30' };
  if (instrument.type === 'CARD') {
    const pan = payer.cardNumber ?? cardForToken(instrument.cardToken);
    const known = pan ? SANDBOX_CARDS[pan] : undefined;
    if (!pan || !known) return { approved: false, code: '05' };
    const card = { cardToken: maskCardNumber(pan), brand: cardBrand(pan), cardType: known.cardType, bankName: known.bankName };
    return known.behaviour === 'pay' ? { approved: true, code: '00', card } : { approved: false, code: '05', card };
  }
  if (instrument.type === 'NETBANKING') {
    return SANDBOX_NETBANKING[instrument.bankCode]?.behaviour === 'pay'
      ? { approved: true, code: '00' }
      : { approved: false, code: '05' };
  }
  return { approved: false, code: '05' };
}

export type CardSeen = { cardToken: string; brand: string; cardType: 'CREDIT' | 'DEBIT'; bankName: string };

function cardForToken(token: string | undefined): string | undefined {
  return token === undefined ? undefined : Object.keys(SANDBOX_CARDS).find((pan) => maskCardNumber(pan) === token);
}

function fromBehaviour(b: SandboxBehaviour): PaymentDecision {
  if (b === 'silent') return { kind: 'silent' };
  return b === 'pay' ? { kind: 'final', approved: true, code: '00' } : { kind: 'final', approved: false, code: '05' };
}

export function decideRefund(
  reason: string,
  amountPaise: number,
  refundable: number,
): { approved: boolean; code: BankResponseCode } {
  if (reason.trim().toLowerCase() === SANDBOX_FAIL_REASON) return { approved: false, code: '05' };
  if (amountPaise > refundable) return { approved: false, code: '13' };
  return { approved: true, code: '00' };
}

export const decideMandate = (payerVpa: string) => sandboxMandatePayer(payerVpa);

export function decideDebit(payerVpa: string, amountPaise: number): { approved: boolean; code: BankResponseCode } {
  if (amountPaise < MIN_BANK_AMOUNT_PAISE) return { approved: false, code: '13' };
  return sandboxMandatePayer(payerVpa).debits === 'pay' ? { approved: true, code: '00' } : { approved: false, code: '05' };
}

export const describeCode = (code: BankResponseCode) => BANK_RESPONSE_CODES[code];

/** 18 digits derived from an id: reference numbers a repeated request gets again. */
export function referenceDigits(id: string): string {
  return BigInt(`0x${createHash('sha256').update(`bank-simulator:${id}`).digest('hex').slice(0, 15)}`)
    .toString()
    .padStart(18, '0');
}
