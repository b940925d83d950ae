import { randomBytes } from 'node:crypto';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { newTxnId } from '../../src/domain/identifiers';
import type { PaymentInstrument } from '../../src/domain/instrument';
import type { RefundEntry, Transaction } from '../../src/domain/transaction';
import type { TxnStatusName } from '../../src/domain/txn-status';
import { PayerDataCipher } from '../../src/domain/payer-data';
import { sealBuyer } from '../../src/store/sealed-buyer';
import { sealInstrument } from '../../src/store/sealed-instrument';
import { orderKey } from '../../src/store/transaction-repository';
import type { TestGateway } from './gateway';
import { request } from './http';

export function ledger(gw: TestGateway, apiKey: string, body: object | string) {
  return request(`${gw.baseUrl}/api/v1/ledger`, { body, headers: { 'x-api-key': apiKey } });
}

/** The bulk API, with the optional checksum header when a secret key is given. */
export function fetchTxn(gw: TestGateway, apiKey: string, body: object | string, secretKey?: string) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'x-api-key': apiKey };
  if (secretKey) headers.checksum = hmacSha256Hex(secretKey, raw);
  return request(`${gw.baseUrl}/api/v1/fetchtxn`, { body: raw, headers });
}

export interface SeededOrder {
  createdAt: Date;
  status?: TxnStatusName;
  successAt?: Date;
  delayedSuccess?: boolean;
  refunds?: RefundEntry[];
  amountPaise?: number;
  instrument?: PaymentInstrument;
}

/**
 * A transaction stored as the workflows leave it, at a chosen time and state: the ledger and bulk
 * tests need dates and states a live payment cannot be given (yesterday, a delayed success).
 */
export async function seedOrder(gw: TestGateway, merchantIdentifier: string, o: SeededOrder): Promise<Transaction> {
  const status = o.status ?? 'Success';
  const succeeded = !['Pending', 'Failure'].includes(status);
  const successAt = o.successAt ?? (succeeded ? new Date(o.createdAt.getTime() + 5_000) : null);
  const t: Transaction = {
    txnId: newTxnId(o.createdAt),
    merchantIdentifier,
    orderId: `seed-${randomBytes(6).toString('hex')}`,
    amountPaise: o.amountPaise ?? 10_000,
    productDescription: 'Seeded order',
    buyerName: null,
    buyerEmail: null,
    ipAddress: '127.0.0.1',
    instrument: o.instrument ?? { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox Bank' },
    status,
    responseCode: status === 'Pending' ? '2' : status === 'Failure' ? '1022' : '100',
    responseDescription: status === 'Failure' ? 'Declined by the bank' : 'Transaction Successful',
    bankRefNum: succeeded ? '123456789012' : null,
    authCode: succeeded ? '123456' : null,
    markedFailedByService: false,
    ...(o.delayedSuccess ? { delayedSuccess: true } : {}),
    createdAt: o.createdAt,
    updatedAt: successAt ?? o.createdAt,
    completedAt: status === 'Pending' ? null : (successAt ?? o.createdAt),
    successAt,
    refunds: o.refunds ?? [],
    version: 2,
  };
  // Stored as the repository stores it (payer data sealed under this gateway's key): nothing in clear
  // for another gateway's start-up migration to seal under its own key.
  const cipher = new PayerDataCipher(gw.rt.config.secrets.masterKey);
  const { buyerName: _name, buyerEmail: _email, ipAddress: _ip, ...rest } = t;
  await gw.rt.store.db.collection('transactions').insertOne({
    _id: orderKey(t) as never,
    ...rest,
    buyerSealed: sealBuyer(cipher, t, t),
    instrument: sealInstrument(cipher, t, t.instrument),
  });
  return t;
}
