import { newTxnId } from '../../src/domain/identifiers';
import type { PayerDataCipher } from '../../src/domain/payer-data';
import type { PaymentOutcome, Transaction } from '../../src/domain/transaction';
import { sealInstrument } from '../../src/store/sealed-instrument';
import { orderKey } from '../../src/store/transaction-repository';

/** The sandbox bank's approval, as a paid order records it. */
export const PAID_OUTCOME: PaymentOutcome = {
  status: 'Success',
  responseCode: '100',
  responseDescription: 'The transaction was completed successfully.',
  bankRefNum: '123456789012',
  authCode: '123456',
  markedFailedByService: false,
};

/**
 * A paid UPI order as the repository stores it (payer data sealed under the cipher's key), for
 * benches and store tests that insert many at once instead of writing them one by one.
 */
export function storedPaidUpiOrder(
  cipher: PayerDataCipher,
  o: { merchantIdentifier: string; orderId: string; amountPaise: number; at: Date; productDescription?: string },
) {
  const t: Transaction = {
    txnId: newTxnId(o.at),
    merchantIdentifier: o.merchantIdentifier,
    orderId: o.orderId,
    amountPaise: o.amountPaise,
    productDescription: o.productDescription ?? 'Masala chai',
    buyerName: null,
    buyerEmail: null,
    ipAddress: null,
    instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox Bank' },
    ...PAID_OUTCOME,
    createdAt: o.at,
    updatedAt: o.at,
    completedAt: o.at,
    successAt: o.at,
    refunds: [],
    version: 2,
  };
  return { _id: orderKey(t), ...t, instrument: sealInstrument(cipher, t, t.instrument) };
}
