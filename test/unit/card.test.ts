import { strict as assert } from 'node:assert';
import { cardBrand, cardIdentifier, cardIdKey, maskCardNumber } from '../../src/domain/card';
import { derivedKey } from '../../src/domain/secrets';

describe('card data', () => {
  it('masks all but the first six and last four digits', () => {
    assert.equal(maskCardNumber('4012001037141112'), '401200XXXXXX1112');
    assert.equal(maskCardNumber('378282246310005'), '378282XXXXX0005');
  });

  it('recognises networks', () => {
    assert.equal(cardBrand('4012001037141112'), 'VISA');
    assert.equal(cardBrand('5555555555554444'), 'MASTERCARD');
    assert.equal(cardBrand('6521000000000000'), 'RUPAY');
  });

  it('derives a stable card id that depends on the key and hides the number', () => {
    const id = cardIdentifier('4012001037141112', 'k1');
    assert.equal(id, cardIdentifier('4012001037141112', 'k1'));
    assert.notEqual(id, cardIdentifier('4012001037141112', 'k2'));
    assert.match(id, /^[0-9a-f]{32}$/);
  });

  it('keys card ids with their own key derived from MASTER_KEY, not MASTER_KEY itself', () => {
    const master = 'ab'.repeat(32);
    const key = cardIdKey(master);
    assert.equal(key.length, 32);
    assert.notDeepEqual(key, Buffer.from(master, 'hex'));
    for (const other of ['secrets-at-rest', 'payload-codec', 'payer-data-at-rest', 'payer-data-lookup'] as const) {
      assert.notDeepEqual(key, derivedKey(master, other), other);
    }
    assert.notEqual(cardIdentifier('4012001037141112', key), cardIdentifier('4012001037141112', master));
  });
});
