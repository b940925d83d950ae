import type { components, paths, webhooks } from './generated/openapi';

/**
 * Friendly names for the generated types (src/generated/openapi.ts, from the gateway's OpenAPI
 * document): nothing here is written by hand but the path to each.
 */
type Schemas = components['schemas'];
/**
 * A request type without the index signature the document adds (`additionalProperties: true`:
 * the gateway ignores fields it does not know), so that Omit and friends keep the named fields.
 */
export type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
type Post<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;
type JsonRequest<P extends keyof paths> =
  Post<P> extends { requestBody: { content: { 'application/json': infer B } } } ? Known<B> : never;
type JsonAnswer<P extends keyof paths, S extends number = 200> =
  Post<P> extends { responses: { [K in S]: { content: { 'application/json': infer B } } } } ? B : never;

export type StatusRequest = JsonRequest<'/api/payments/v1/status'>;
export type StatusResponse = JsonAnswer<'/api/payments/v1/status'>;
export type StatusOrder = StatusResponse['data']['orders'][number];

export type QrRequest = JsonRequest<'/api/payments/v1/upi/qr'>;
export type QrResponse = JsonAnswer<'/api/payments/v1/upi/qr'>;

export type LedgerRequest = JsonRequest<'/api/v1/ledger'>;
export type LedgerResponse = JsonAnswer<'/api/v1/ledger'>;
/** One page of the ledger: what a `success: true` answer carries. */
export type LedgerPage = Extract<LedgerResponse, { success: true }>['data'];
export type LedgerTransaction = LedgerPage['transactions'][number];

export type BulkRequest = JsonRequest<'/api/v1/fetchtxn'>;
export type BulkResponse = JsonAnswer<'/api/v1/fetchtxn'>;
export type BulkTransaction = Extract<BulkResponse['data'], unknown[]>[number];

export type PaymentLinkBatch = JsonRequest<'/pl/api/v1/create'>;
export type PaymentLinkResponse = JsonAnswer<'/pl/api/v1/create'>;

export type MandateData = Known<Schemas['MandateData']>;
export type MandateResponse = Extract<JsonAnswer<'/transactU'>, { paymentMode: 'UPI_MANDATE' }>;
export type CheckoutData = Known<Schemas['CheckoutData']>;
export type CheckoutFields = Known<Schemas['CheckoutFields']>;
export type CheckoutServerResponse = Exclude<JsonAnswer<'/transactU'>, MandateResponse>;
export type UpdateTxnData = Known<Schemas['UpdateTxnData']>;
export type UpdateTxnResponse = JsonAnswer<'/updateTxn'>;
export type CheckTxnData = Known<Schemas['CheckTxnData']>;
export type CheckTxnResponse = JsonAnswer<'/checkTxn'>;

export type TxnData = Schemas['TxnData'];
export type RealtimeTxn = Schemas['RealtimeTxn'];
export type LateTxn = Schemas['LateTxn'];
/** The `txnData` of a `settlement.processed` call (merchants opted in to settlement webhooks). */
export type SettlementProcessed = Schemas['SettlementProcessed'];
export type WebhookBody = webhooks['transaction']['post']['requestBody']['content']['application/json'];
