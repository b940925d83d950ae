import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PaymentResponse, PublishedOutcome, publishedOutcome } from '../../src/domain/response-codes';

describe('transaction response codes (domain)', () => {
  const entries = Object.values(PaymentResponse);

  it('gives each outcome its own code and its own description', () => {
    assert.equal(new Set(entries.map((e) => e.code)).size, entries.length);
    assert.equal(new Set(entries.map((e) => e.description)).size, entries.length);
  });

  it('keeps the codes merchants already read: 100 success, 208 pending, 1021 below the minimum, 102 cancelled', () => {
    assert.equal(PaymentResponse.success.code, '100');
    assert.equal(PaymentResponse.pending.code, '208');
    assert.equal(PaymentResponse.belowMinimum.code, '1021');
    assert.equal(PaymentResponse.cancelledByPayer.code, '102');
  });

  it("every code is in the merchants' error guide", () => {
    const guide = readFileSync(path.join(__dirname, '../../docs/merchants/errors.md'), 'utf8');
    for (const { code } of entries) assert.ok(guide.includes(`\`${code}\``), `docs/merchants/errors.md names ${code}`);
  });
});

describe('Outcome codes: the gateway’s reasons and the codes merchants see', () => {
  const seen = (code: string) => publishedOutcome({ responseCode: code, responseDescription: 'stored text' });

  it("turns each stored reason into Zaakpay's published code and text", () => {
    assert.deepEqual(seen('1022'), {
      responseCode: '400',
      responseDescription: 'The transaction was declined by the issuing bank.',
    });
    for (const code of ['1023', '1024'])
      assert.deepEqual(seen(code), { responseCode: '183', responseDescription: 'Unfortunately, the transaction has failed.' });
    assert.deepEqual(seen('102'), { responseCode: '102', responseDescription: 'Customer cancelled transaction.' });
    assert.equal(seen('100').responseCode, '100');
    // Zaakpay's success text, byte for byte: its trailing space is part of what plugins compare.
    assert.equal(seen('100').responseDescription, 'The transaction was completed successfully. ');
    assert.equal(PublishedOutcome.success.description, 'The transaction was completed successfully. ');
    assert.equal(seen('1021').responseDescription, 'Minimum transaction limit is 9 rupees.');
    assert.equal(seen('208').responseCode, '208');
  });

  it('passes codes that are not payment reasons (a mandate debit’s 1111) unchanged', () => {
    assert.deepEqual(seen('1111'), { responseCode: '1111', responseDescription: 'stored text' });
  });

  it('every reason maps to a published outcome, and no reason code is itself a published one it does not map to', () => {
    const published = new Set<string>(Object.values(PublishedOutcome).map((p) => p.code));
    for (const r of Object.values(PaymentResponse)) {
      assert.ok(published.has(seen(r.code).responseCode), r.code);
      if (published.has(r.code)) assert.equal(seen(r.code).responseCode, r.code, r.code);
    }
  });
});
