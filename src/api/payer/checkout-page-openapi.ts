import { z } from 'zod';
import { pathParameter } from '../reference/examples';
import { operation } from '../reference/operation';
import { checkoutCancelFormSchema, checkoutPayFormSchema, checkoutResponseSchema } from '../schemas/checkout';

/** The hosted checkout page and its forms (the payment link page, for people only, is left out). */
export function checkoutPagePaths(): Record<string, object> {
  const token = { ...pathParameter('token'), schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{32}$' } };
  const pageForm = (summary: string, description: string, request: z.ZodType, example: Record<string, string>) => ({
    post: {
      ...operation({
        summary,
        description,
        in: 'form',
        request,
        example,
        responses: {
          303: { description: 'back to the page, which shows what happened' },
          400: { description: 'the page, saying why (an instrument not accepted, a form not readable)', html: true },
          403: { description: 'a form not posted from the page (no matching cookie, another Origin)', html: true },
          404: { description: 'no such checkout', html: true },
        },
        errors: [405, 413, 503],
        errorEnvelope: checkoutResponseSchema,
      }),
      parameters: [token],
    },
  });
  return {
    '/checkout/{token}': {
      get: {
        ...operation({
          summary: 'The hosted checkout page (HTML)',
          description:
            "What the payer sees: open (the payer's choices, the UPI QR, the time left, a cancel), in progress (it refreshes itself), or final with the signed return to the merchant. Works without JavaScript; the token is the payer's capability.",
          in: 'query',
          request: z.object({}),
          example: {},
          responses: {
            200: { description: 'the page', html: true },
            404: { description: 'no such checkout', html: true },
          },
          errors: [503],
          errorEnvelope: checkoutResponseSchema,
        }),
        parameters: [token],
      },
    },
    '/checkout/{token}/pay': pageForm(
      "The hosted checkout's pay form",
      'One instrument per form: payerVpa, cardNumber or bankCode (the sandbox test instruments, while the sandbox is on). The order takes one payer only, through its payment workflow.',
      checkoutPayFormSchema,
      { csrf: 'the csrf field of the page', payerVpa: 'success@sandbox' },
    ),
    '/checkout/{token}/cancel': pageForm(
      "The hosted checkout's cancel",
      'The payer cancels: the order fails with 102 (cancelled by the payer) unless it is no longer waiting for a payer, and the result goes back to the merchant.',
      checkoutCancelFormSchema,
      { csrf: 'the csrf field of the page' },
    ),
  };
}
