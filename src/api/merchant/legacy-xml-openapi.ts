import { z } from 'zod';
import { CheckTxnCodes } from '../../domain/check-txn';
import { RefundResponse } from '../../domain/refund';
import type { OperationReference } from '../operation';
import { exampleLegacyXmlForm } from '../reference/examples';

const xmlAnswer = z
  .string()
  .describe(
    'text/xml: <?xml version="1.0" encoding="UTF-8"?><zaakpay_response><response_element><orderid/><responsecode/><description/> (a status that found its order adds <txnid/><amount/> (paise) <txnstatus/><txndate/> (yyyy-MM-dd HH:mm:ss IST) <paymentmode/>)</response_element><checksum/></zaakpay_response>, on one line',
  );
const SIGNING =
  "`checksum` = HMAC-SHA256 (hex) with the secret key of every posted field but checksum, each value in single quotes, in the order posted (`'v1''v2'...`), or the same over the values as Zaakpay's PHP kits sanitize them; the names must be exactly one of the status or refund forms Zaakpay's PHP, JSP, Magento and 1.1 PHP kits post (the PHP kit's `submitButton` included), else 109 naming the field (HTTP 200); a raw checksum counts only when no value holds a single quote. The answer's <checksum> is HMAC-SHA256 of `'orderid''responsecode''description'`, empty when the request was not authenticated (110, 111, 189, 180). Every coded refusal (checksum, merchant, a malformed form 2005, an invalid field 2002) is answered HTTP 200 with the code in the same XML, as Zaakpay answers, since kits read the code, not the status line; 413, 415 (2003), 429 and 503 keep their status lines. Never a 500.";
const codes = (list: { code: string; description: string }[]) => list.map((c) => `${c.code} ${c.description}`).join('; ');

const responses = { 200: { description: 'the answer (a business result)', schema: xmlAnswer, mediaType: 'text/xml' } };
const errors = { errors: [413, 415, 429, 503], errorEnvelope: xmlAnswer, errorMediaType: 'text/xml' as const };

/** Zaakpay's legacy XML status API, for its older kits (design.md, Legacy XML APIs). */
export const checkTransactionReference: OperationReference = {
  summary: "Zaakpay's legacy XML status API: one order",
  description: `Flat form fields merchantIdentifier, orderId, mode (as the older PHP, JSP and Magento kits post them). ${SIGNING} The status is /checkTxn's: the order's outcome code (230/245 after a refund), 190 no such order. Refusals: ${codes(Object.values(CheckTxnCodes))}.`,
  example: exampleLegacyXmlForm([
    ['orderId', 'order-1001'],
    ['mode', '0'],
    ['submitButton', 'Check Status'],
  ]),
  responses,
  ...errors,
};

/** Zaakpay's legacy XML update API. */
export const updateTransactionReference: OperationReference = {
  summary: "Zaakpay's legacy XML update API: refund all or part of an order",
  description: `Flat form fields merchantIdentifier, orderId, mode, updateDesired, updateReason, amount (paise, a partial refund), merchantRefId (optional: without it the same signed values within 24 hours answer as the first request, one refund; later they are a new refund), as the older PHP kit's update page and the 1.1 PHP kit's refund page post them. ${SIGNING} The same rules and codes as /updateTxn (one refund use case): ${codes(Object.values(RefundResponse))}.`,
  example: exampleLegacyXmlForm([
    ['orderId', 'order-1001'],
    ['mode', '0'],
    ['updateDesired', '14'],
    ['updateReason', 'Test reason'],
  ]),
  responses,
  ...errors,
};
