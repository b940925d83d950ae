import { z } from 'zod';
import { CheckTxnCodes, toCheckTxnRecord, unknownOrderEntry, type CheckTxnCode } from '../../domain/check-txn';
import { checksumMatches } from '../../domain/checksum';
import { parseLooseObject } from '../../domain/loose-json';
import type { Merchant } from '../../domain/merchant';
import { checkTxnFailure } from '../envelope';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { defineOperation, Refusal, type AuthScheme, type SignedDataForm } from '../operation';
import { checkTxnDataSchema, type CheckTxnResponse } from '../schemas/check-txn';
import { checkTxnReference } from './check-txn-openapi';

/** A refusal in /checkTxn's codes, echoing the merchant once it is known (HTTP 200, as Zaakpay answers). */
class CheckTxnRefusal extends Refusal {
  constructor(
    key: CheckTxnCode,
    readonly merchantIdentifier: string | null = null,
  ) {
    const c = CheckTxnCodes[key];
    const authentication = key === 'merchantIdentifierInvalid' || key === 'checksumBlank' || key === 'checksumMismatch';
    super(c.code, c.description, 200, authentication);
  }
}

/** `data` read leniently (JSON, or the unquoted form of some PHP kits); null when it is neither, or absent. */
const looseData = (form: SignedDataForm) => (form.data ? parseLooseObject(form.data) : null);

/**
 * The merchant `data` names, then the `checksum` over the raw `data` text, each refused with its
 * code (design.md, Legacy status): none named, unknown, a blank checksum, a mismatch.
 */
const signedLooseData: AuthScheme<Merchant> = {
  bodySignature: 'formChecksum',
  from: 'body',
  async authenticate(_ctx, deps, { parsed }) {
    const form = parsed as SignedDataForm;
    const named = looseData(form)?.merchantIdentifier;
    if (typeof named !== 'string' || named === '') return new CheckTxnRefusal('merchantIdentifierMissing');
    const merchant = named.length <= 64 ? await deps.useCases.shared.findMerchant(named) : null;
    if (!merchant) return new CheckTxnRefusal('merchantIdentifierInvalid');
    const { data, checksum } = form;
    if (!checksum) return new CheckTxnRefusal('checksumBlank', merchant.merchantIdentifier);
    const signed = await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
      checksumMatches(keys, data, checksum),
    );
    return signed ? merchant : new CheckTxnRefusal('checksumMismatch', merchant.merchantIdentifier);
  },
  limitKey: (merchant) => merchant.merchantIdentifier,
};

/** The form's fields as sent: `data` may be missing or empty (refused as naming no merchant). */
const checkTxnFields = z.object({ data: z.string().default(''), checksum: z.string().optional() });

/**
 * `POST /checkTxn?v=5`, Zaakpay's legacy status API (design.md, Legacy status): form fields
 * `data` and `checksum` (HMAC-SHA256 of the raw `data` string). `data` is read leniently (JSON, or
 * the unquoted form of some PHP kits) to find the merchant, and validated once the checksum over the
 * raw text matched. Answers the order as the status API's record with the card and the further
 * product descriptions, its code mirrored at the top level; an unknown order is 190, in orders[0]
 * too. Every refusal is HTTP 200 with its code.
 */
export const checkTxnOperation = defineOperation({
  method: 'post',
  path: '/checkTxn',
  envelope: 'checkTxn',
  auth: signedLooseData,
  body: {
    contentType: 'application/x-www-form-urlencoded',
    form: checkTxnFields,
    readData: parseLooseObject,
    schema: checkTxnDataSchema,
    invalid(_issues, parsed) {
      const data = looseData(parsed as SignedDataForm);
      const orderId = (data?.orderDetail as { orderId?: unknown } | undefined)?.orderId;
      const merchantIdentifier = data?.merchantIdentifier as string;
      return new CheckTxnRefusal(
        orderId === undefined || orderId === '' ? 'orderIdMissing' : 'requestInvalid',
        merchantIdentifier,
      );
    },
  },
  limit: 'checkTxn',
  reference: checkTxnReference,
  refusalBody: (refusal) =>
    checkTxnFailure(refusal.code, refusal.text, refusal instanceof CheckTxnRefusal ? refusal.merchantIdentifier : null),
  async handle({ caller: merchant, body }, deps) {
    // Looked up under the authenticated merchant: another merchant's order is simply not found.
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderDetail.orderId };
    const found = await deps.useCases.merchant.findOrder(order);
    if (!found) {
      const c = CheckTxnCodes.orderNotFound;
      return checkTxnFailure(c.code, c.description, merchant.merchantIdentifier, [unknownOrderEntry(order.orderId)]);
    }
    const { record, transaction } = found;
    const orderRecord = toCheckTxnRecord(record, transaction, body.refundDetail?.merchantRefId);
    const answer: CheckTxnResponse = {
      success: true,
      merchantIdentifier: merchant.merchantIdentifier,
      version: '5',
      orders: [orderRecord],
      responseCode: orderRecord.responseCode,
      responseDescription: orderRecord.responseDescription,
      txnId: record.orderDetail.txnId,
    };
    return answer;
  },
});
