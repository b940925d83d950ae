import { z } from 'zod';
import { BusinessResults } from '../../domain/api-errors';
import { defineOperation, JsonText } from '../operation';
import { signedQrFields } from '../operation-auth';
import { createQrSchema } from '../schemas/qr';
import { merchantIdentifierField } from '../schemas/common';
import { qrReference } from './qr-openapi';

/** Only what finding the merchant takes; the rest is validated after the checksum has matched. */
const qrCaller = z.object({ merchantIdentifier: merchantIdentifierField });

/** Dynamic QR: POST /api/payments/v1/upi/qr creates the order's QR, or answers a repeat with the first one's data. */
export const qrOperation = defineOperation({
  method: 'post',
  path: '/api/payments/v1/upi/qr',
  envelope: 'success',
  auth: signedQrFields(qrCaller),
  body: { contentType: 'application/json', schema: createQrSchema },
  limit: 'qr',
  reference: qrReference,
  async handle({ caller: merchant, body, ip }, deps) {
    const result = await deps.useCases.merchant.createQr({
      merchant,
      orderId: body.orderId,
      amountPaise: body.amount,
      productDescription: body.productDescription,
      buyerEmail: body.buyerEmail ?? null,
      width: body.width,
      height: body.height,
      ipAddress: ip,
    });
    const message = result.kind === 'created' ? BusinessResults.qrCreated : BusinessResults.qrOrderRepeated;
    // Written around the stored data text, so a repeat answers the first request's bytes exactly.
    return new JsonText(
      `{"success":${result.kind === 'created'},"message":${JSON.stringify({ code: String(message.code), text: message.text })},"data":${result.data}}`,
    );
  },
});
