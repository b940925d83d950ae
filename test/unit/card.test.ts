import { strict as assert } from 'node:assert';
import { cardBrand, cardIdentifier, maskCardNumber } from '../../src/domain/card';

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
});
