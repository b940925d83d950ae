import { constants, publicEncrypt } from 'node:crypto';
import forge from 'node-forge';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { istWallClockToInstant } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { request, type HttpResult } from './http';

export type VpaPadding = 'oaep-sha1' | 'oaep-sha256' | 'pkcs1';

/** payerVpa as a merchant's code encrypts it with the gateway's public key, base64. */
export function encryptVpa(publicKeyPem: string, vpa: string, padding: VpaPadding = 'pkcs1'): string {
  if (padding === 'pkcs1') {
    // Java's default "RSA" (PKCS#1 v1.5), which node:crypto no longer offers for decryption.
    const key = forge.pki.publicKeyFromPem(publicKeyPem) as forge.pki.rsa.PublicKey;
    return forge.util.encode64(key.encrypt(vpa, 'RSAES-PKCS1-V1_5'));
  }
  const oaepHash = padding === 'oaep-sha1' ? 'sha1' : 'sha256';
  return publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, Buffer.from(vpa)).toString(
    'base64',
  );
}

/** `yyyy-MM-dd` of the IST day `days` after the IST day of `from`. */
export function istDate(from: Date, days = 0): string {
  return new Date(from.getTime() + 5.5 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/** The instant of an IST wall-clock time on the IST day `days` after that of `from`. */
export function istAt(from: Date, days: number, time: string): Date {
  const [y, mo, d] = istDate(from, days).split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  return istWallClockToInstant(y!, mo!, d!, h, mi, s)!;
}

/** The fields every mandate request carries besides orderDetail and paymentInstrument. */
const requestHeader = (m: MerchantCredentials) => ({
  merchantIdentifier: m.merchantIdentifier,
  encryptionKeyId: m.encryptionKeyId,
  merchantIpAddress: '127.0.0.1',
  showMobile: 'true',
  mode: '0',
  returnUrl: 'https://merchant.example/return',
});

/** A create request's `data` as the contract's samples carry it; override any part. */
export function createData(
  m: MerchantCredentials,
  o: {
    orderId: string;
    today: Date;
    payer?: string;
    padding?: VpaPadding;
    mode?: string;
    frequency?: string;
    firstDebit?: boolean;
    firstDebitAmount?: number;
    amount?: string;
    endInDays?: number;
  },
): Record<string, any> {
  return {
    ...requestHeader(m),
    orderDetail: {
      orderId: o.orderId,
      amount: o.amount ?? '500000',
      currency: 'INR',
      purpose: '14',
      productDescription: 'Monthly milk',
      email: 'payer@example.com',
      phone: '9876543210',
      txnDate: istDate(o.today),
    },
    billingAddress: {
      'first name': 'Asha',
      'last name': 'Rao',
      address: '12 MG Road',
      city: 'Bengaluru',
      state: 'Karnataka',
      country: 'India',
      pincode: '560001',
      'Phone Number': '9876543210',
    },
    shippingAddress: { address: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', country: 'India', pincode: '560001' },
    paymentInstrument: {
      paymentMode: o.mode ?? 'upiCollectMandate',
      upiMandate: {
        action: 'create',
        payerVpa: encryptVpa(m.publicKeyPem, o.payer ?? 'success@sandbox', o.padding),
        mandateConfig: {
          firstDebit: o.firstDebit ?? false,
          ...(o.firstDebitAmount !== undefined ? { firstDebitAmount: o.firstDebitAmount } : {}),
          frequency: o.frequency ?? 'Adhoc',
          startDate: istDate(o.today),
          endDate: istDate(o.today, o.endInDays ?? 365),
        },
      },
    },
    debitorcredit: 'upi',
  };
}

/** A notify request's `data`: a debit of `amount` paise at `executionDate` (IST text). */
export function notifyData(
  m: MerchantCredentials,
  o: { orderId: string; parent: string; executionDate: string; amount?: string; autoExecute?: boolean; payer?: string },
): Record<string, any> {
  return {
    ...requestHeader(m),
    orderDetail: {
      orderId: o.orderId,
      amount: o.amount ?? '25000',
      currency: 'INR',
      purpose: 14,
      productDescription: 'Milk, June',
    },
    paymentInstrument: {
      paymentMode: 'upiCollectMandate',
      upiMandate: {
        action: 'notify',
        payerVpa: encryptVpa(m.publicKeyPem, o.payer ?? 'success@sandbox'),
        mandateParentOrderId: o.parent,
        executionDate: o.executionDate,
        autoExecute: o.autoExecute ?? true,
      },
    },
    debitorcredit: 'upi',
  };
}

/** POST /transactU?v=.. as a merchant sends it: `data` as JSON text and its checksum, form-encoded. */
export function transactU(
  baseUrl: string,
  m: MerchantCredentials,
  data: Record<string, unknown> | string,
  o: { v?: string | null; checksum?: string | null; body?: string } = {},
): Promise<HttpResult> {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  const sum = o.checksum === undefined ? hmacSha256Hex(m.secretKey, text) : o.checksum;
  const form = new URLSearchParams({ data: text, ...(sum === null ? {} : { checksum: sum }) });
  const v = o.v === undefined ? '13' : o.v;
  return request(`${baseUrl}/transactU${v === null ? '' : `?v=${v}`}`, {
    body: o.body ?? form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}
