import { strict as assert } from 'node:assert';
import { PaymentResponse, PublishedOutcome, publishedOutcome } from '../../src/domain/response-codes';

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
