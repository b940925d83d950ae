import type { Config } from '../config';
import { newTxnId } from '../domain/identifiers';
import { qrImageAddress } from '../domain/qr-image-address';
import { renderQrPngOffLoop } from '../qr-render-pool';
import { upiIntentUrl } from '../domain/upi-intent';
import type { Transaction } from '../domain/transaction';
import type { CreateQrRequest, CreateQrResult } from '../domain/dynamic-qr';
import { ensurePaymentWorkflow, type StartPaymentDeps } from './start-payment';

export type { CreateQrRequest, CreateQrResult };

export interface CreateQrDeps extends StartPaymentDeps {
  config: { http: Pick<Config['http'], 'publicBaseUrl'>; upi: Pick<Config['upi'], 'payeeVpa' | 'merchantCategoryCode'> };
}

/**
 * Creates a dynamic QR order: a Pending UPI transaction whose payment workflow waits for the payer
 * until the QR expires. The order id is the arbiter: whoever inserts it first owns it; everyone
 * else gets code 128 and the first request's data, whatever they sent.
 */
export async function createQr(deps: CreateQrDeps, r: CreateQrRequest): Promise<CreateQrResult> {
  // A merchant's retry is the common repeat: answer it from the store without rendering a PNG.
  const known = await deps.transactions.findByOrder({ merchantIdentifier: r.merchant.merchantIdentifier, orderId: r.orderId });
  if (known) return repeatOf(deps, known);

  const now = deps.now();
  const txnId = newTxnId(now);
  const url = upiIntentUrl({
    payeeVpa: deps.config.upi.payeeVpa,
    payeeName: r.merchant.name,
    amountPaise: r.amountPaise,
    txnId,
    note: r.productDescription,
    merchantCategoryCode: deps.config.upi.merchantCategoryCode,
  });
  const imgUrl = qrImageAddress(deps.config.http.publicBaseUrl, r.merchant.secretKey, {
    mid: r.merchant.merchantIdentifier,
    width: r.width,
    height: r.height,
    url,
  });
  const imgData = (await renderQrPngOffLoop(r.merchant.merchantIdentifier, url, r.width, r.height)).toString('base64');
  const data = JSON.stringify({ orderId: r.orderId, serviceOrderId: txnId, qrDetails: { url, imgUrl, imgData } });

  const { transaction, created, heldBy } = await deps.transactions.createPending({
    txnId,
    merchantIdentifier: r.merchant.merchantIdentifier,
    orderId: r.orderId,
    amountPaise: r.amountPaise,
    productDescription: r.productDescription,
    buyerName: null,
    buyerEmail: r.buyerEmail,
    ipAddress: r.ipAddress,
    instrument: { kind: 'UPI_QR' },
    qrData: data,
    createdAt: now,
  });
  // Held by a mandate (or its first debit to come): another kind of order, as for a transaction below.
  if (!transaction) return { kind: 'repeat', data: JSON.stringify({ orderId: r.orderId, serviceOrderId: heldBy.txnId }) };
  if (!created) return repeatOf(deps, transaction);
  await ensurePaymentWorkflow(deps, transaction);
  return { kind: 'created', data };
}

/** The answer to a repeated order id: the first request's data, or only the ids of another kind of payment. */
async function repeatOf(deps: CreateQrDeps, t: Transaction): Promise<CreateQrResult> {
  // A repeat also heals a crash between the insert and the workflow start.
  if (t.qrData !== undefined && t.status === 'Pending') await ensurePaymentWorkflow(deps, t);
  return { kind: 'repeat', data: t.qrData ?? JSON.stringify({ orderId: t.orderId, serviceOrderId: t.txnId }) };
}
