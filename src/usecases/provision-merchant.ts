import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { randomHex32 } from '../domain/identifiers';
import { hashApiKey, newApiKey, newEncryptionKeyId } from '../domain/secrets';
import type { MerchantRepository } from '../store/merchant-repository';
import { MerchantIdentifierTakenError, type MerchantCredentials, type MerchantToProvision } from '../domain/merchant';

export { MerchantIdentifierTakenError, type MerchantCredentials };

const generateRsaKeyPair = promisify(generateKeyPair);

/** New credentials with the private half of the encryption key, which only the store keeps. */
export interface MerchantKeys extends MerchantCredentials {
  privateKeyPem: string;
}

/**
 * Provisions a merchant with new keys, or imports one moving from another Zaakpay-compatible
 * gateway with the merchantIdentifier and secretKey it has (design.md, Importing a merchant):
 * its code then changes only the host. A taken identifier is refused and nothing is stored.
 */
export async function provisionMerchant(
  merchants: MerchantRepository,
  input: MerchantToProvision,
  now: Date,
): Promise<MerchantCredentials> {
  const keys = await newMerchantKeys();
  const chosen = {
    ...keys,
    ...(input.merchantIdentifier ? { merchantIdentifier: input.merchantIdentifier } : {}),
    ...(input.secretKey ? { secretKey: input.secretKey } : {}),
  };
  return credentialsOf(await storeMerchant(merchants, input, chosen, now));
}

/** What the merchant is shown of its keys: everything but the private key. */
export const credentialsOf = ({ merchantIdentifier, secretKey, apiKey, encryptionKeyId, publicKeyPem }: MerchantCredentials) => ({
  merchantIdentifier,
  secretKey,
  apiKey,
  encryptionKeyId,
  publicKeyPem,
});

/** A new RSA 2048 key pair for payerVpa with its id (provisioning, and rotating the key). */
export async function newEncryptionKey(): Promise<{ keyId: string; publicKeyPem: string; privateKeyPem: string }> {
  const { publicKey, privateKey } = await generateRsaKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { keyId: newEncryptionKeyId(), publicKeyPem: publicKey, privateKeyPem: privateKey };
}

export async function newMerchantKeys(): Promise<MerchantKeys> {
  const key = await newEncryptionKey();
  return {
    merchantIdentifier: randomHex32(),
    secretKey: randomHex32(),
    apiKey: newApiKey(),
    encryptionKeyId: key.keyId,
    publicKeyPem: key.publicKeyPem,
    privateKeyPem: key.privateKeyPem,
  };
}

/** Stores a merchant with the given keys (the demo merchant is stored again with its saved keys). */
export async function storeMerchant(
  merchants: MerchantRepository,
  input: { name: string; webhookUrl?: string | null },
  keys: MerchantKeys,
  now: Date,
): Promise<MerchantKeys> {
  const created = await merchants.create({
    merchantIdentifier: keys.merchantIdentifier,
    name: input.name,
    webhookUrl: input.webhookUrl ?? null,
    secretKey: keys.secretKey,
    apiKeyHash: hashApiKey(keys.apiKey),
    encryptionKey: { keyId: keys.encryptionKeyId, publicKeyPem: keys.publicKeyPem, privateKeyPem: keys.privateKeyPem },
    createdAt: now,
  });
  if (!created) throw new MerchantIdentifierTakenError(`merchantIdentifier ${keys.merchantIdentifier} is taken`);
  return keys;
}
