import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { QR_IMAGE_LABEL, QR_IMAGE_PATH, qrImageAddress, qrImageSignatureMatches } from '../../src/domain/qr-image-address';

const SECRET = 'a-secret-key-of-the-merchant';
const params = { mid: 'm1abcdef', width: 240, height: 300, url: 'upi://pay?pa=shop@bank&pn=Meera Textiles&am=10.00&cu=INR' };

/** The query parameters as a receiver reads them off the address, `data` left undecoded. */
function received(address: string) {
  const query = address.slice(address.indexOf('?') + 1);
  const raw = Object.fromEntries(query.split('&').map((kv) => kv.split('=') as [string, string]));
  return { mid: raw.mid!, width: raw.width!, height: raw.height!, rawData: raw.data!, checksum: raw.checksum! };
}

describe('signed QR image addresses (domain)', () => {
  it('signs the label + mid + width + height + the percent-encoded intent with HMAC-SHA256 of the secret key', () => {
    const address = qrImageAddress('https://gw.example', SECRET, params);
    const data = encodeURIComponent(params.url);
    const checksum = createHmac('sha256', SECRET).update(`${QR_IMAGE_LABEL}m1abcdef240300${data}`).digest('hex');
    assert.equal(
      address,
      `https://gw.example${QR_IMAGE_PATH}?mid=m1abcdef&width=240&height=300&data=${data}&checksum=${checksum}`,
    );
  });

  it('accepts the address as issued, under the current key or one it replaced', () => {
    const q = received(qrImageAddress('https://gw.example', SECRET, params));
    assert.equal(qrImageSignatureMatches(SECRET, q), true);
    assert.equal(qrImageSignatureMatches(['a-newer-secret-key', SECRET], q), true);
  });

  it('refuses any changed part, another key, or the data decoded before checking', () => {
    const q = received(qrImageAddress('https://gw.example', SECRET, params));
    assert.equal(qrImageSignatureMatches(SECRET, { ...q, width: '241' }), false);
    assert.equal(qrImageSignatureMatches(SECRET, { ...q, mid: 'm1abcdeg' }), false);
    assert.equal(qrImageSignatureMatches(SECRET, { ...q, rawData: q.rawData.replace('10.00', '99.00') }), false);
    assert.equal(qrImageSignatureMatches(SECRET, { ...q, rawData: decodeURIComponent(q.rawData) }), false);
    assert.equal(qrImageSignatureMatches('another-secret-key-entirely', q), false);
  });

  it('accepts the earlier unlabelled text only when asked to (the migration window)', () => {
    const q = received(qrImageAddress('https://gw.example', SECRET, params));
    const unlabelled = { ...q, checksum: createHmac('sha256', SECRET).update(`m1abcdef240300${q.rawData}`).digest('hex') };
    assert.equal(qrImageSignatureMatches(SECRET, unlabelled), false);
    assert.equal(qrImageSignatureMatches(SECRET, unlabelled, true), true);
  });
});
