import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { decryptAtRest, encryptAtRest, hashApiKey } from '../../src/domain/secrets';

describe('secrets at rest', () => {
  const key = randomBytes(32).toString('hex');

  it('round-trips and never stores the plaintext', () => {
    const stored = encryptAtRest(key, 'secret-0678056d');
    assert.equal(stored.includes('secret-0678056d'), false);
    assert.notEqual(stored, encryptAtRest(key, 'secret-0678056d'), 'a fresh IV each time');
    assert.equal(decryptAtRest(key, stored), 'secret-0678056d');
  });

  it('refuses a wrong master key or a tampered value', () => {
    const stored = encryptAtRest(key, 'secret');
    assert.throws(() => decryptAtRest(randomBytes(32).toString('hex'), stored));
    const parts = stored.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    assert.throws(() => decryptAtRest(key, parts.join('.')));
  });

  it('hashes API keys with SHA-256', () => {
    assert.equal(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
