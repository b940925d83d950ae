import { constants, privateDecrypt } from 'node:crypto';
import forge from 'node-forge';

/** The one answer to every decryption failure: nothing tells a padding error from any other. */
export class PayerVpaDecryptionError extends Error {
  constructor() {
    super('payerVpa could not be decrypted');
    this.name = 'PayerVpaDecryptionError';
  }
}

const VPA = /^[A-Za-z0-9._-]{2,256}@[A-Za-z0-9.-]{2,64}$/;

/**
 * Decrypts a mandate's `payerVpa` (base64 RSA ciphertext under the merchant's public key). OAEP
 * (SHA-1, then SHA-256) goes through node:crypto; PKCS#1 v1.5, what Java's default "RSA" produces,
 * through node-forge, since Node 20 refuses PKCS#1 v1.5 private decryption (CVE-2023-46809).
 * Call it only after the request's checksum has authenticated the merchant: then only the key
 * holder can ever probe the padding, and every failure is the same PayerVpaDecryptionError.
 */
export function decryptPayerVpa(privateKeyPem: string, ciphertextBase64: string): string {
  const ciphertext = Buffer.from(ciphertextBase64, 'base64');
  const attempts: (() => Buffer)[] = [
    () => privateDecrypt({ key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }, ciphertext),
    () => privateDecrypt({ key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ciphertext),
    () => {
      const key = forge.pki.privateKeyFromPem(privateKeyPem);
      return Buffer.from(key.decrypt(ciphertext.toString('binary'), 'RSAES-PKCS1-V1_5'), 'binary');
    },
  ];
  for (const attempt of attempts) {
    let plain: Buffer;
    try {
      plain = attempt();
    } catch {
      continue;
    }
    const vpa = plain.toString('utf8');
    // A wrong padding can still "decrypt" to bytes by chance: only a VPA counts.
    if (VPA.test(vpa)) return vpa;
  }
  throw new PayerVpaDecryptionError();
}
