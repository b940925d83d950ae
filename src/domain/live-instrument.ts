import type { PaymentInstrument } from './instrument';
import { SANDBOX_CARDS, SANDBOX_NETBANKING, SANDBOX_VPAS } from './sandbox-bank';

const VPA = /^[A-Za-z0-9._-]{2,256}@[A-Za-z0-9.-]{2,64}$/;

/** Whether a VPA, card number or bank code is one of the sandbox payer's test instruments. */
export function isTestInstrument(input: { payerVpa?: string; cardNumber?: string; bankCode?: string }): boolean {
  const vpa = input.payerVpa?.trim().toLowerCase();
  if (vpa !== undefined && (Object.hasOwn(SANDBOX_VPAS, vpa) || vpa.endsWith('@sandbox'))) return true;
  if (input.cardNumber !== undefined && Object.hasOwn(SANDBOX_CARDS, input.cardNumber.replace(/\s+/g, ''))) return true;
  return input.bankCode !== undefined && Object.hasOwn(SANDBOX_NETBANKING, input.bankCode.trim().toUpperCase());
}

/**
 * What a payer presents where the sandbox does not run (production): a real UPI ID, whose collect
 * request the bank sends to the payer's app. Cards are typed on the bank's page (the caller handles
 * `cardAtBank`), never here; net banking is not offered; test instruments are refused.
 */
export function liveInstrument(input: {
  payerVpa?: string;
  cardNumber?: string;
  bankCode?: string;
}): { ok: true; instrument: PaymentInstrument } | { ok: false; problem: string } {
  if (isTestInstrument(input)) return { ok: false, problem: 'test instruments work only in the sandbox' };
  if (input.payerVpa !== undefined) {
    const vpa = input.payerVpa.trim().toLowerCase();
    if (!VPA.test(vpa)) return { ok: false, problem: 'enter a UPI ID such as name@bank' };
    return { ok: true, instrument: { kind: 'UPI', vpa, bankName: 'NA' } };
  }
  if (input.cardNumber !== undefined) return { ok: false, problem: "card numbers are entered on your bank's page" };
  if (input.bankCode !== undefined) return { ok: false, problem: 'net banking is not available on this page' };
  return { ok: false, problem: 'enter a UPI ID' };
}
