import { constants, publicEncrypt } from 'node:crypto';

/** How `payerVpa` is RSA-encrypted: the gateway accepts all three (OAEP with SHA-256 or SHA-1, and PKCS#1 v1.5). */
export type VpaPadding = 'oaep-sha256' | 'oaep-sha1' | 'pkcs1';

/**
 * Encrypts a payer's VPA with the merchant's RSA public key (PEM, from provisioning), base64, as
 * `paymentInstrument.upiMandate.payerVpa` carries it. OAEP with SHA-256 by default; `pkcs1` is
 * PKCS#1 v1.5, what Java's default "RSA" cipher produces.
 */
export function encryptPayerVpa(publicKeyPem: string, vpa: string, padding: VpaPadding = 'oaep-sha256'): string {
  const options =
    padding === 'pkcs1'
      ? { key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING }
      : { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: padding === 'oaep-sha1' ? 'sha1' : 'sha256' };
  return publicEncrypt(options, Buffer.from(vpa, 'utf8')).toString('base64');
}
