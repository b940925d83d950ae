import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { randomHex32 } from '../domain/identifiers';
import { hashApiKey, newApiKey, newEncryptionKeyId } from '../domain/secrets';
import type { MerchantRepository } from '../store/merchant-repository';

const generateRsaKeyPair = promisify(generateKeyPair);

/** What provisioning hands the merchant, once: the API key and secret are not shown again. */
export interface MerchantCredentials {
  merchantIdentifier: string;
  secretKey: string;
  apiKey: string;
  encryptionKeyId: string;
  publicKeyPem: string;
}

/** New credentials with the private half of the encryption key, which only the store keeps. */
export interface MerchantKeys extends MerchantCredentials {
  privateKeyPem: string;
}

export async function provisionMerchant(
  merchants: MerchantRepository,
  input: { name: string; webhookUrl?: string | null },
  now: Date,
): Promise<MerchantCredentials> {
  return credentialsOf(await storeMerchant(merchants, input, await newMerchantKeys(), now));
}

/** What the merchant is shown of its keys: everything but the private key. */
export const credentialsOf = ({ merchantIdentifier, secretKey, apiKey, encryptionKeyId, publicKeyPem }: MerchantCredentials) => ({
  merchantIdentifier,
  secretKey,
  apiKey,
  encryptionKeyId,
  publicKeyPem,
});

export async function newMerchantKeys(): Promise<MerchantKeys> {
  const { publicKey, privateKey } = await generateRsaKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    merchantIdentifier: randomHex32(),
    secretKey: randomHex32(),
    apiKey: newApiKey(),
    encryptionKeyId: newEncryptionKeyId(),
    publicKeyPem: publicKey,
    privateKeyPem: privateKey,
  };
}

/** Stores a merchant with the given keys (the demo merchant is stored again with its saved keys). */
export async function storeMerchant(
  merchants: MerchantRepository,
  input: { name: string; webhookUrl?: string | null },
  keys: MerchantKeys,
  now: Date,
): Promise<MerchantKeys> {
  await merchants.create({
    merchantIdentifier: keys.merchantIdentifier,
    name: input.name,
    webhookUrl: input.webhookUrl ?? null,
    secretKey: keys.secretKey,
    apiKeyHash: hashApiKey(keys.apiKey),
    encryptionKey: { keyId: keys.encryptionKeyId, publicKeyPem: keys.publicKeyPem, privateKeyPem: keys.privateKeyPem },
    createdAt: now,
  });
  return keys;
}
