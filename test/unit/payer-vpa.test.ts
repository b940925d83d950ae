import { strict as assert } from 'node:assert';
import { constants, generateKeyPairSync, publicEncrypt } from 'node:crypto';
import forge from 'node-forge';
import { decryptPayerVpa, PayerVpaDecryptionError } from '../../src/domain/payer-vpa';

describe('payerVpa decryption', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const vpa = 'success@sandbox';

  it('reads OAEP with SHA-1 and with SHA-256 (node:crypto)', () => {
    for (const oaepHash of ['sha1', 'sha256']) {
      const c = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, Buffer.from(vpa));
      assert.equal(decryptPayerVpa(privateKey, c.toString('base64')), vpa, oaepHash);
    }
  });

  it("reads PKCS#1 v1.5, as Java's default RSA cipher writes it", () => {
    const key = forge.pki.publicKeyFromPem(publicKey);
    const c = Buffer.from(key.encrypt(vpa, 'RSAES-PKCS1-V1_5'), 'binary');
    assert.equal(decryptPayerVpa(privateKey, c.toString('base64')), vpa);
  });

  it('answers every failure with one and the same error', () => {
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const foreign = publicEncrypt({ key: other.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, Buffer.from(vpa));
    const notAVpa = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, Buffer.from('hello'));
    const messages = new Set<string>();
    for (const bad of [
      '',
      'not base64 !!',
      Buffer.alloc(256, 7).toString('base64'),
      foreign.toString('base64'),
      notAVpa.toString('base64'),
    ]) {
      assert.throws(
        () => decryptPayerVpa(privateKey, bad),
        (e: Error) => {
          messages.add(e.message);
          return e instanceof PayerVpaDecryptionError;
        },
      );
    }
    assert.equal(messages.size, 1);
  });
});
