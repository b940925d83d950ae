import { z } from 'zod';
import { V8_RETURN_FIELDS } from '../../domain/checkout-return';
import { merchantIdentifierField } from './common';

/** The sandbox merchant's return page: the fields a checkout's return posts (V8 holds V7's and the legacy ones). */
export const sandboxReturnFormSchema = z.strictObject({
  ...(Object.fromEntries(V8_RETURN_FIELDS.map((k) => [k, z.string().max(2048).optional()])) as Record<
    (typeof V8_RETURN_FIELDS)[number],
    z.ZodOptional<z.ZodString>
  >),
  checksum: z.string().max(128).optional(),
});

export const sandboxReturnQuerySchema = z.strictObject({
  merchantIdentifier: merchantIdentifierField.describe('whose secret key verifies the checksum'),
});
