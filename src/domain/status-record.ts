import { formatIstDateTime } from './ist-time';
import { paymentModeText } from './instrument';
import { paiseToWire } from './money';
import type { Transaction } from './transaction';
import { TxnStatus } from './txn-status';

/** One element of the status API's `data.orders`, exactly as the contract names its fields. */
export interface StatusOrderRecord {
  orderDetail: {
    orderId: string;
    txnId: string;
    amount: string;
    productDescription: string;
    createDate: string;
  };
  paymentInstrument: {
    paymentMode: string;
    card: { cardToken: string; cardId: string } | null;
  };
  txnDate: string;
  txnStatus: string;
  responseCode: string;
  responseDescription: string;
  refundDetails: { merchantRefId: string; amount: string; rrn: string; refundStatus: string }[];
}

export function toStatusOrderRecord(t: Transaction): StatusOrderRecord {
  return {
    orderDetail: {
      orderId: t.orderId,
      txnId: t.txnId,
      amount: paiseToWire(t.amountPaise),
      productDescription: t.productDescription,
      createDate: formatIstDateTime(t.createdAt),
    },
    paymentInstrument: {
      paymentMode: paymentModeText(t.instrument),
      card: t.instrument.kind === 'CARD' ? { cardToken: t.instrument.cardToken, cardId: t.instrument.cardId } : null,
    },
    txnDate: formatIstDateTime(t.completedAt ?? t.updatedAt),
    txnStatus: String(TxnStatus[t.status]),
    responseCode: t.responseCode,
    responseDescription: t.responseDescription,
    refundDetails: t.refunds.map((r) => ({
      merchantRefId: r.merchantRefId,
      amount: paiseToWire(r.amountPaise),
      rrn: r.rrn ?? 'NA',
      refundStatus: r.status,
    })),
  };
}
