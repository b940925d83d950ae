import { z } from 'zod';
import { UPDATE_REASON } from '../../domain/refund';
import { TRANSACTION_KINDS } from '../../domain/transaction-kind';
import { TxnStatus, type TxnStatusName } from '../../domain/txn-status';
import { DATE_PATTERN } from '../../domain/report-range';
import { ORDER_ID_PATTERN } from '../../domain/identifiers';

/** The dashboard's transaction search (a GET form) and refund forms; unknown fields are refused. */

/** A field left empty in a GET form is no condition at all. */
const optionalText = <T extends z.ZodTypeAny>(t: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    t.optional(),
  );

const STATUSES = Object.keys(TxnStatus) as [TxnStatusName, ...TxnStatusName[]];

/** The keyset cursor of the next page: the last row's createdAt (ms) and txnId. */
export const CURSOR_PATTERN = /^(\d{1,15})\.([\x21-\x7e]{1,80})$/;
export const encodeCursor = (t: { createdAt: Date; txnId: string }) => `${t.createdAt.getTime()}.${t.txnId}`;
export function decodeCursor(text: string): { createdAt: Date; txnId: string } {
  const m = CURSOR_PATTERN.exec(text)!;
  return { createdAt: new Date(Number(m[1])), txnId: m[2] };
}

export const transactionSearchSchema = z.strictObject({
  orderId: optionalText(z.string().regex(ORDER_ID_PATTERN, 'is not an orderId')),
  txnId: optionalText(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a txnId')),
  status: optionalText(z.enum(STATUSES)),
  kind: optionalText(z.enum(TRANSACTION_KINDS)),
  from: optionalText(z.string().regex(DATE_PATTERN, 'must be a date yyyy-MM-dd')),
  to: optionalText(z.string().regex(DATE_PATTERN, 'must be a date yyyy-MM-dd')),
  after: optionalText(z.string().regex(CURSOR_PATTERN, 'is not a page of this search')),
});
export type TransactionSearch = z.infer<typeof transactionSearchSchema>;

/** The longest period one search covers (days). */
export const MAX_SEARCH_DAYS = 92;
export const SEARCH_PAGE_SIZE = 50;

const reason = z.string().trim().regex(UPDATE_REASON, 'reason: 5 to 30 letters, digits and spaces');
/** A refund form carries its own id, made when the page was shown: sending it twice refunds once. */
const refundId = z.string().regex(/^dash[a-f0-9]{16}$/, 'the form is damaged; reload the page');

export const refundFormSchema = z.discriminatedUnion('updateDesired', [
  z.strictObject({ updateDesired: z.literal('14'), reason, refundId }),
  z.strictObject({
    updateDesired: z.literal('22'),
    reason,
    refundId,
    amount: z
      .string()
      .trim()
      .regex(/^\d{1,7}(\.\d{1,2})?$/, 'amount: rupees, at most 2 decimals (e.g. 125.50)'),
  }),
]);
