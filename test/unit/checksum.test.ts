import { strict as assert } from 'node:assert';
import { checksumMatches, hmacSha256Hex, qrChecksumPayload } from '../../src/domain/checksum';

// Expected values computed independently with `printf %s '<payload>' | openssl dgst -sha256 -hmac <key>`.
const SECRET = '0678056d96914a8583fb518caf42828a';
const MID = 'b19e8f103bce406cbd3476431b6b7973';

describe('checksums (HMAC-SHA256, lowercase hex)', () => {
  it('matches the RFC-style reference vector', () => {
    assert.equal(
      hmacSha256Hex('key', 'The quick brown fox jumps over the lazy dog'),
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it('status API: over the exact request body bytes', () => {
    const body = `{"merchantIdentifier":"${MID}","orderId":"ZPLive1602500556344","version":13}`;
    assert.equal(hmacSha256Hex(SECRET, Buffer.from(body)), 'e3329de4ddfbf3d3a4d0ad823f9b1c62db8efe4eb135e04d4eafb4bc66afad7c');
  });

  it('hashes UTF-8 bytes, not characters', () => {
    const body = `{"merchantIdentifier":"${MID}","amount":"₹ 100"}`;
    assert.equal(hmacSha256Hex(SECRET, body), '388c90e244b44c77b186c886a14b1144dbd498b77200ea76e416472bd0ddbfd1');
  });

  it('dynamic QR: merchantIdentifier + orderId + amount + productDescription, no separators', () => {
    const payload = qrChecksumPayload({
      merchantIdentifier: MID,
      orderId: 'ORD-1001',
      amount: 10000,
      productDescription: 'Order for Tea',
    });
    assert.equal(payload, `${MID}ORD-100110000Order for Tea`);
    assert.equal(hmacSha256Hex(SECRET, payload), 'd6c5116b426fabd338eede3739cd0fdf59218e35fbfefaa4da9e9c7be4477ee5');
  });

  describe('checksumMatches', () => {
    const body = `{"merchantIdentifier":"${MID}","orderId":"ZPLive1602500556344","version":13}`;
    const good = 'e3329de4ddfbf3d3a4d0ad823f9b1c62db8efe4eb135e04d4eafb4bc66afad7c';

    it('accepts the right checksum, in either hex case', () => {
      assert.equal(checksumMatches(SECRET, body, good), true);
      assert.equal(checksumMatches(SECRET, body, good.toUpperCase()), true);
    });

    it('refuses a checksum of other bytes (re-serialised JSON with a space)', () => {
      const spaced = body.replace(',', ', ');
      assert.equal(checksumMatches(SECRET, spaced, good), false);
    });

    it('refuses a wrong key, a changed digit, and malformed values without throwing', () => {
      assert.equal(checksumMatches('another-secret', body, good), false);
      assert.equal(checksumMatches(SECRET, body, `${good.slice(0, 63)}${good[63] === 'c' ? 'd' : 'c'}`), false);
      for (const bad of ['', 'abc', `${good}00`, 'z'.repeat(64), good.slice(0, 62)]) {
        assert.equal(checksumMatches(SECRET, body, bad), false, bad);
      }
    });
  });
});
