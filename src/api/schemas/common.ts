import { z } from 'zod';
import { ORDER_ID_PATTERN } from '../../domain/identifiers';
import { MAX_AMOUNT_PAISE } from '../../domain/money';

export const merchantIdentifierField = z.string().min(1).max(64);
export const orderIdField = z
  .string()
  .regex(ORDER_ID_PATTERN, 'must be 1-64 characters: letters, digits and . _ - / (not starting with a symbol)');
export const amountPaiseField = z
  .number()
  .int('must be an integer number of paise')
  .min(1, `must be between 1 and ${MAX_AMOUNT_PAISE} paise`)
  .max(MAX_AMOUNT_PAISE, `must be between 1 and ${MAX_AMOUNT_PAISE} paise`);
/**
 * Zaakpay's `mode`: "0" test or "1" live, as a string or a number (design.md, Mode). Live
 * merchants send "1"; the value is ignored, since the gateway's environment decides whether money moves.
 */
export const modeField = z
  .union([z.enum(['0', '1']), z.literal(0), z.literal(1)])
  .describe('"0" (test) or "1" (live), a string or a number; ignored: the environment decides whether money moves');
export const descriptionField = z.string().trim().min(1).max(255).describe('surrounding whitespace is removed');

/** An e-mail address as the gateway checks it: a pattern, so the API reference states it exactly. */
export const emailField = z
  .string()
  .max(254)
  .regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, 'must be an e-mail address');

/**
 * An optional field as Zaakpay's clients send it: empty (`buyerEmail: ""`) when they have no value,
 * which counts as absent on every API (design.md, Optional text fields and phone numbers).
 */
export const emptyAsAbsent = <S extends z.ZodType>(field: S) =>
  z.union([z.literal('').transform(() => undefined), field]).optional();

/**
 * An Indian mobile number as people write it: 10 digits (6-9 first), alone or after 0, 91 or +91,
 * the digits in groups split by single spaces or hyphens (`+91 98765 43210`, `+91-9876543210`).
 */
export const INDIAN_MOBILE_PATTERN = /^(?:(?:\+91|91|0)[ -]?)?[6-9](?:[ -]?\d){9}$/;
/** A mobile number as Zaakpay's clients write it, kept (and echoed) as its 10 digits. */
export const indianMobileField = z
  .string()
  .regex(
    INDIAN_MOBILE_PATTERN,
    'must be an Indian mobile number: 10 digits, alone or after 0, 91 or +91 (single spaces or hyphens between groups allowed)',
  )
  // The pattern leaves only the prefix and the number's 10 digits once the separators are gone.
  .transform((v) => v.replace(/[ -]/g, '').slice(-10))
  .describe(
    '10 digits starting 6-9, alone or after 0, 91 or +91, optionally grouped by single spaces or hyphens (+91 98765 43210, +91-9876543210); kept as the 10 digits',
  );

/** Paise as the Zaakpay-shaped forms carry them: a whole number, as a string. */
export const paiseStringField = z
  .string()
  // 1 to MAX_AMOUNT_PAISE (10 lakh rupees) as a pattern, so the API reference states the bound too.
  .regex(/^(?:[1-9]\d{0,7}|100000000)$/, `must be a whole number of paise from 1 to ${MAX_AMOUNT_PAISE}, as a string`);

/** An address the payer's browser is sent to: http or https only. */
export const returnUrlField = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);
