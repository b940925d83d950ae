import { hmacSha256Hex } from '../../src/domain/checksum';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import type { TestGateway } from './gateway';
import { request, type HttpResult } from './http';

/** A dynamic QR request as a merchant sends it, signed over merchantIdentifier+orderId+amount+productDescription. */
export function qrBody(merchant: MerchantCredentials, fields: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    merchantIdentifier: merchant.merchantIdentifier,
    amount: 10_000,
    productDescription: 'Masala chai',
    ...fields,
  };
  const signed = ['merchantIdentifier', 'orderId', 'amount', 'productDescription'].map((k) => body[k] ?? '').join('');
  return { ...body, checksum: fields.checksum ?? hmacSha256Hex(merchant.secretKey, signed) };
}

export function createQr(gw: TestGateway, merchant: MerchantCredentials, fields: Record<string, unknown>): Promise<HttpResult> {
  return request(`${gw.baseUrl}/api/payments/v1/upi/qr`, { body: JSON.stringify(qrBody(merchant, fields)) });
}

export function payQr(gw: TestGateway, body: Record<string, unknown>): Promise<HttpResult> {
  return request(`${gw.baseUrl}/sandbox/v1/qr/pay`, { body });
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
