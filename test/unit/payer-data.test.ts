import { strict as assert } from 'node:assert';
import { PayerDataCipher } from '../../src/domain/payer-data';

describe('payer data at rest: sealing and lookup hashes', () => {
  const master = 'cd'.repeat(32);
  const cipher = new PayerDataCipher(master);
  const where = { merchantIdentifier: 'm1', field: 'payerVpa', documentId: 'm1:o1' };

  it('seals to pd1 text that opens only where it was sealed', () => {
    const sealed = cipher.seal('asha@okbank', where);
    assert.match(sealed, /^pd1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.ok(!sealed.includes('asha'));
    assert.notEqual(cipher.seal('asha@okbank', where), sealed, 'a fresh IV each time');
    assert.equal(cipher.open(sealed, where), 'asha@okbank');
    for (const elsewhere of [
      { ...where, merchantIdentifier: 'm2' },
      { ...where, documentId: 'm1:o2' },
      { ...where, field: 'body' },
    ]) {
      assert.throws(() => cipher.open(sealed, elsewhere), /unable to authenticate/);
    }
    assert.throws(() => new PayerDataCipher('ef'.repeat(32)).open(sealed, where), /unable to authenticate/, 'another MASTER_KEY');
    assert.throws(() => cipher.open('v2.a.b.c', where), /unrecognised/);
  });

  it('hashes a VPA case-insensitively within one merchant, never equal across merchants or kinds', () => {
    const h = cipher.lookupHash('m1', 'vpa', 'Asha@OKBank');
    assert.match(h, /^[0-9a-f]{64}$/);
    assert.equal(cipher.lookupHash('m1', 'vpa', 'asha@okbank'), h);
    assert.notEqual(cipher.lookupHash('m2', 'vpa', 'asha@okbank'), h);
    assert.notEqual(cipher.lookupHash('m1', 'cardId', 'asha@okbank'), h);
    assert.notEqual(new PayerDataCipher('ef'.repeat(32)).lookupHash('m1', 'vpa', 'asha@okbank'), h, 'keyed');
  });
});
