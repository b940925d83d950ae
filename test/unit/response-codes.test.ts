import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PaymentResponse } from '../../src/domain/response-codes';

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
