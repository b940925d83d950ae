import { checksumMatches, hmacHex, qrChecksumText, qrImageChecksumText } from './checksum';
import { codeAndText, GatewayError } from './errors';
import { send, signedDataForm, type Fetch } from './http';
import { encryptPayerVpa, type VpaPadding } from './payer-vpa';
import type {
  Known,
  BulkRequest,
  BulkResponse,
  BulkTransaction,
  CheckoutData,
  CheckoutServerResponse,
  CheckTxnResponse,
  LedgerPage,
  LedgerRequest,
  LedgerResponse,
  LedgerTransaction,
  MandateData,
  MandateResponse,
  PaymentLinkBatch,
  PaymentLinkResponse,
  QrRequest,
  QrResponse,
  StatusResponse,
  UpdateTxnData,
  UpdateTxnResponse,
} from './types';

/** The ledger's code for a page with no record (`success: false`, HTTP 200): an empty page, not a refusal. */
const LEDGER_NO_RECORD = '1035';

export interface GatewayClientOptions {
  /** The gateway's base URL, e.g. `https://pay.example.com` (no trailing slash needed). */
  baseUrl: string;
  merchantIdentifier: string;
  /** Signs the checksum APIs (status, QR, mandates, refunds, checkTxn, checkout). */
  secretKey: string;
  /** The dashboard API key (ledger, bulk, payment links). */
  apiKey?: string;
  /** The RSA key `payerVpa` is encrypted with (mandates), and its id. */
  encryptionKeyId?: string;
  publicKeyPem?: string;
  /** Where the payment link API is served, when not on baseUrl. */
  paymentLinkBaseUrl?: string;
  /** A fetch of your own (a proxy, a test double); the global fetch by default. */
  fetch?: Fetch;
}

type Without<T, K extends keyof Known<T>> = Omit<Known<T>, K>;
type UpiMandate = MandateData['paymentInstrument']['upiMandate'];
/** A mandate request as the merchant writes it: the plain VPA, encrypted by the client. */
export type MandateInput = Without<MandateData, 'merchantIdentifier' | 'encryptionKeyId' | 'paymentInstrument'> & {
  paymentInstrument: {
    paymentMode: MandateData['paymentInstrument']['paymentMode'];
    upiMandate: Without<UpiMandate, 'payerVpa' | 'action'>;
  };
  /** The payer's VPA in clear; sent RSA-encrypted. */
  payerVpa: string;
  /** `oaep-sha256` by default. */
  padding?: VpaPadding;
  /** The `v` of /transactU: 13 by default (12 is accepted too). */
  version?: 12 | 13;
};

export interface RefundInput {
  orderId: string;
  /** Paise. Absent: a full refund of what remains (updateDesired 14); present: partial (22). */
  amount?: number;
  /** 5 to 30 letters, digits and spaces. */
  updateReason: string;
  /** Your id of this refund, unique per order: the idempotency key of a retry. */
  merchantRefId?: string;
}

/**
 * A typed client for every merchant API of the gateway. Each call signs its request as the gateway
 * verifies it (over the exact bytes sent) and throws a GatewayError with the contract's code and
 * text when the gateway refuses it (any HTTP status but 2xx). Business results that come with HTTP
 * 200 (an unknown order on the status API, a duplicate QR order's 128, a refund's 201, a mandate's
 * 1118) are returned, as the contract describes them.
 */
export class GatewayClient {
  private readonly base: string;
  private readonly fetchImpl: Fetch;

  constructor(readonly options: GatewayClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
  }

  private get mid() {
    return this.options.merchantIdentifier;
  }

  private apiKeyHeader(): Record<string, string> {
    if (!this.options.apiKey) throw new TypeError('this call needs the apiKey option (the dashboard API key)');
    return { 'x-api-key': this.options.apiKey };
  }

  /** POST /api/payments/v1/status: one order and its refunds. Header `checksum` over the exact body. */
  async status(orderId: string, version = 13): Promise<StatusResponse> {
    const body = JSON.stringify({ merchantIdentifier: this.mid, orderId, version });
    return (await send(this.fetchImpl, `${this.base}/api/payments/v1/status`, {
      body,
      contentType: 'application/json',
      headers: { checksum: hmacHex(this.options.secretKey, body) },
    })) as StatusResponse;
  }

  /** POST /api/payments/v1/upi/qr: a dynamic QR (208), or the first one's data for a repeated orderId (128). */
  async createQr(input: Without<QrRequest, 'merchantIdentifier' | 'checksum'>): Promise<QrResponse> {
    const request = { merchantIdentifier: this.mid, ...input };
    const checksum = hmacHex(this.options.secretKey, qrChecksumText(request));
    return (await send(this.fetchImpl, `${this.base}/api/payments/v1/upi/qr`, {
      body: JSON.stringify({ ...request, checksum }),
      contentType: 'application/json',
    })) as QrResponse;
  }

  /** The signed address of a QR image (GET, image/png) for a UPI intent (`qrDetails.url`). */
  qrImageUrl(intentUrl: string, width = 200, height = 200): string {
    const data = encodeURIComponent(intentUrl);
    const checksum = hmacHex(this.options.secretKey, qrImageChecksumText(this.mid, width, height, data));
    return `${this.base}/api/payments/v1/upi/qr/image?mid=${encodeURIComponent(this.mid)}&width=${width}&height=${height}&data=${data}&checksum=${checksum}`;
  }

  /**
   * POST /api/v1/ledger: one page. An empty page (Zaakpay's `success: false`, 1035 "No record found.")
   * is an empty list; any other refusal throws with its code (1030, 1036, ...).
   */
  async ledgerPage(request: LedgerRequest): Promise<LedgerPage> {
    try {
      const body = (await this.apiKeyCall('/api/v1/ledger', request)) as Extract<LedgerResponse, { success: true }>;
      return body.data;
    } catch (e) {
      if (e instanceof GatewayError && e.code === LEDGER_NO_RECORD) return { transactions: [], isNextPageAvailable: false };
      throw e;
    }
  }

  /** Every ledger transaction of the request, page after page (from `pageNumber`, default 1). */
  async *ledger(request: LedgerRequest): AsyncGenerator<LedgerTransaction> {
    for (let page = request.pageNumber ?? 1; ; page++) {
      const data = await this.ledgerPage({ ...request, pageNumber: page });
      yield* data.transactions;
      if (!data.isNextPageAvailable) return;
    }
  }

  /** POST /api/v1/fetchtxn: one page of one IST day's successes; empty when none was found. */
  async bulkPage(request: Without<BulkRequest, 'status'> & { status?: 'success' }): Promise<BulkTransaction[]> {
    const body = (await this.apiKeyCall('/api/v1/fetchtxn', { status: 'success', ...request })) as BulkResponse;
    // "No transaction found" comes as text in `data`.
    return Array.isArray(body.data) ? body.data : [];
  }

  /** Every bulk record of the day, page after page, until a short page. */
  async *bulk(request: Without<BulkRequest, 'status' | 'pageNumber'> & { pageNumber?: number }): AsyncGenerator<BulkTransaction> {
    const size = request.pageSize ?? 10;
    for (let page = request.pageNumber ?? 1; ; page++) {
      const records = await this.bulkPage({ ...request, pageNumber: page, pageSize: size });
      yield* records;
      if (records.length < size) return;
    }
  }

  /**
   * Checks a bulk record's own `checksum`: HMAC-SHA256 of the record's JSON without it, keys in the
   * order the API returned them (so pass the record as parsed, untouched).
   */
  bulkRecordIsAuthentic(record: BulkTransaction): boolean {
    const { checksum, ...rest } = record as BulkTransaction & { checksum?: string };
    return checksumMatches(this.options.secretKey, JSON.stringify(rest), checksum);
  }

  /** POST /pl/api/v1/create: a batch of payment links; failed entries carry `errorDescription`. */
  async createPaymentLinks(batch: PaymentLinkBatch): Promise<PaymentLinkResponse> {
    const base = (this.options.paymentLinkBaseUrl ?? this.base).replace(/\/+$/, '');
    return (await send(this.fetchImpl, `${base}/pl/api/v1/create`, {
      body: JSON.stringify(batch),
      contentType: 'application/json',
      headers: this.apiKeyHeader(),
    })) as PaymentLinkResponse;
  }

  /** Registers a UPI mandate (/transactU, action create): 1101 when authorised by the payer's bank. */
  createMandate(input: MandateInput): Promise<MandateResponse> {
    return this.mandate('create', input);
  }

  /** Notifies the payer of a debit under an Adhoc mandate (action notify): 1109, or 1110/1118/... */
  notifyMandate(input: MandateInput): Promise<MandateResponse> {
    return this.mandate('notify', input);
  }

  /** Confirms a notified debit whose autoExecute was false (action execute, the notify's orderId). */
  executeMandate(input: MandateInput): Promise<MandateResponse> {
    return this.mandate('execute', input);
  }

  private async mandate(action: UpiMandate['action'], input: MandateInput): Promise<MandateResponse> {
    const { encryptionKeyId, publicKeyPem } = this.options;
    if (!encryptionKeyId || !publicKeyPem) throw new TypeError('mandates need the encryptionKeyId and publicKeyPem options');
    const { payerVpa, padding, version = 13, paymentInstrument, ...rest } = input;
    const data: MandateData = {
      merchantIdentifier: this.mid,
      encryptionKeyId,
      ...rest,
      paymentInstrument: {
        paymentMode: paymentInstrument.paymentMode,
        upiMandate: { action, payerVpa: encryptPayerVpa(publicKeyPem, payerVpa, padding), ...paymentInstrument.upiMandate },
      },
    };
    return (await this.signedForm(`/transactU?v=${version}`, data)) as MandateResponse;
  }

  /**
   * /transactU?v=8 from a server, for a UPI intent (`UPIAPP`) or QR (`upiqr`): JSON 208 with the app
   * links or the QR. (A browser's checkout goes through `checkout.ts`'s signed form instead.)
   */
  async checkoutUpi(data: Without<CheckoutData, 'merchantIdentifier'>): Promise<CheckoutServerResponse> {
    const answer = (await this.signedForm('/transactU?v=8', { merchantIdentifier: this.mid, ...data })) as CheckoutServerResponse;
    if (answer.responseCode !== '208') throw new GatewayError(answer.responseCode, answer.responseDescription, 200, answer);
    return answer;
  }

  /**
   * POST /updateTxn: a full (no amount, 230) or partial (amount in paise, 245) refund. Every other code
   * is returned, refusals included (the gateway answers them with HTTP 200, as Zaakpay): read responseCode.
   */
  async refund(input: RefundInput): Promise<UpdateTxnResponse> {
    const data: UpdateTxnData = {
      merchantIdentifier: this.mid,
      orderDetail: { orderId: input.orderId, ...(input.amount === undefined ? {} : { amount: String(input.amount) }) },
      mode: '0',
      updateDesired: input.amount === undefined ? '14' : '22',
      updateReason: input.updateReason,
      ...(input.merchantRefId ? { merchantRefId: input.merchantRefId } : {}),
    };
    return (await this.signedForm('/updateTxn', data)) as UpdateTxnResponse;
  }

  /**
   * POST /checkTxn?v=5: Zaakpay's legacy status (the order, its card and refunds). Refusals are returned
   * (HTTP 200, success false, their code); an unknown order is 190, its orderId and code in orders[0].
   */
  async checkTxn(orderId: string, merchantRefId?: string): Promise<CheckTxnResponse> {
    return (await this.signedForm('/checkTxn?v=5', {
      merchantIdentifier: this.mid,
      mode: '0',
      orderDetail: { orderId },
      ...(merchantRefId ? { refundDetail: { merchantRefId } } : {}),
    })) as CheckTxnResponse;
  }

  /** A form API: `data` as JSON text and its checksum over exactly that text. */
  private signedForm(path: string, data: object): Promise<unknown> {
    const text = JSON.stringify(data);
    return send(this.fetchImpl, `${this.base}${path}`, {
      body: signedDataForm(text, hmacHex(this.options.secretKey, text)),
      contentType: 'application/x-www-form-urlencoded',
    });
  }

  /** The API-key JSON APIs: a `success: false` answer is a refusal, thrown with its code. */
  private async apiKeyCall(path: string, request: object): Promise<unknown> {
    const body = await send(this.fetchImpl, `${this.base}${path}`, {
      body: JSON.stringify(request),
      contentType: 'application/json',
      headers: this.apiKeyHeader(),
    });
    if ((body as { success?: boolean }).success === false) {
      const found = codeAndText(body) ?? { code: 'UNKNOWN', text: 'the gateway refused the request' };
      throw new GatewayError(found.code, found.text, 200, body);
    }
    return body;
  }
}
