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

export async function provisionMerchant(
  merchants: MerchantRepository,
  input: { name: string; webhookUrl?: string | null },
  now: Date,
): Promise<MerchantCredentials> {
  const { publicKey, privateKey } = await generateRsaKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const credentials: MerchantCredentials = {
    merchantIdentifier: randomHex32(),
    secretKey: randomHex32(),
    apiKey: newApiKey(),
    encryptionKeyId: newEncryptionKeyId(),
    publicKeyPem: publicKey,
  };
  await merchants.create({
    merchantIdentifier: credentials.merchantIdentifier,
    name: input.name,
    webhookUrl: input.webhookUrl ?? null,
    secretKey: credentials.secretKey,
    apiKeyHash: hashApiKey(credentials.apiKey),
    encryptionKey: { keyId: credentials.encryptionKeyId, publicKeyPem: publicKey, privateKeyPem: privateKey },
    createdAt: now,
  });
  return credentials;
}
