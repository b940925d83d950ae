import { z } from 'zod';
import { ORDER_ID_PATTERN } from '../../domain/identifiers';
import { isValidAmountPaise, MAX_AMOUNT_PAISE } from '../../domain/money';

export const merchantIdentifierField = z.string().min(1).max(64);
export const orderIdField = z
  .string()
  .regex(ORDER_ID_PATTERN, 'must be 1-64 characters: letters, digits and . _ - / (not starting with a symbol)');
export const amountPaiseField = z
  .number()
  .int('must be an integer number of paise')
  .refine(isValidAmountPaise, `must be between 1 and ${MAX_AMOUNT_PAISE} paise`);
export const descriptionField = z.string().trim().min(1).max(255).describe('surrounding whitespace is removed');
