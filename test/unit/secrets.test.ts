import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { decryptAtRest, derivedKey, encryptAtRest, hashApiKey, isLegacyAtRest } from '../../src/domain/secrets';
import { encryptV1 } from '../support/secrets';

describe('secrets at rest', () => {
  const key = randomBytes(32).toString('hex');
  const mine = { merchantIdentifier: 'm-aaaa', field: 'secretKey' };

  it('round-trips and never stores the plaintext', () => {
    const stored = encryptAtRest(key, 'secret-0678056d', mine);
    assert.match(stored, /^v2\./);
    assert.equal(stored.includes('secret-0678056d'), false);
    assert.notEqual(stored, encryptAtRest(key, 'secret-0678056d', mine), 'a fresh IV each time');
    assert.equal(decryptAtRest(key, stored, mine), 'secret-0678056d');
  });

  it('refuses a wrong master key or a tampered value', () => {
    const stored = encryptAtRest(key, 'secret', mine);
    assert.throws(() => decryptAtRest(randomBytes(32).toString('hex'), stored, mine));
    const parts = stored.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    assert.throws(() => decryptAtRest(key, parts.join('.'), mine));
    assert.throws(() => decryptAtRest(key, 'v9.a.b.c', mine), /unrecognised/);
  });

  it('a secret moved to another merchant, or to another field, does not decrypt', () => {
    const stored = encryptAtRest(key, 'secret', mine);
    assert.throws(() => decryptAtRest(key, stored, { ...mine, merchantIdentifier: 'm-bbbb' }), /unable to authenticate/);
    assert.throws(() => decryptAtRest(key, stored, { ...mine, field: 'encryptionKeys.ek_1.privateKey' }));
    // No ambiguity from joining: ("a|b", "c") is not ("a", "b|c").
    const joined = encryptAtRest(key, 'x', { merchantIdentifier: 'a|b', field: 'c' });
    assert.throws(() => decryptAtRest(key, joined, { merchantIdentifier: 'a', field: 'b|c' }));
  });

  it('one key per purpose, derived with HKDF; none is the master key', () => {
    const atRest = derivedKey(key, 'secrets-at-rest');
    const codec = derivedKey(key, 'payload-codec');
    assert.equal(atRest.length, 32);
    assert.notDeepEqual(atRest, codec);
    assert.notDeepEqual(atRest, Buffer.from(key, 'hex'));
    assert.deepEqual(derivedKey(key, 'secrets-at-rest'), atRest, 'deterministic');
  });

  it('still reads the first format (v1), which is marked for rewriting', () => {
    const old = encryptV1(key, 'old-secret');
    assert.ok(isLegacyAtRest(old));
    assert.equal(decryptAtRest(key, old, mine), 'old-secret');
    assert.ok(!isLegacyAtRest(encryptAtRest(key, 'new', mine)));
  });

  it('hashes API keys with SHA-256', () => {
    assert.equal(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
