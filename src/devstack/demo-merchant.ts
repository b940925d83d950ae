import { constants, publicEncrypt } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hmacSha256Hex } from '../domain/checksum';
import { istDate } from '../domain/ist-time';
import type { MerchantRepository } from '../store/merchant-repository';
import {
  credentialsOf,
  newMerchantKeys,
  storeMerchant,
  type MerchantCredentials,
  type MerchantKeys,
} from '../usecases/provision-merchant';

/**
 * The demo merchant of `npm start`: provisioned on first run, its keys kept in DATA_DIR
 * (development only; the store keeps only the API key's hash), so every start prints the same
 * credentials and a store database that lacks it (a time-skipping run's fresh one) gets it again.
 */
export async function ensureDemoMerchant(
  merchants: MerchantRepository,
  dataDir: string,
  now: Date,
): Promise<{ credentials: MerchantCredentials; created: boolean }> {
  const file = path.join(dataDir, 'demo-merchant.json');
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<MerchantKeys> & MerchantCredentials) : null;
  if (saved && (await merchants.findById(saved.merchantIdentifier))) return { credentials: credentialsOf(saved), created: false };
  // Files written before the private key was kept there cannot be stored again: a new merchant then.
  const keys = saved?.privateKeyPem ? (saved as MerchantKeys) : await newMerchantKeys();
  await storeMerchant(merchants, { name: 'Demo Merchant' }, keys, now);
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return { credentials: credentialsOf(keys), created: true };
}

/** Where `npm start` keeps the demo merchant's public key as PEM (the guides encrypt payerVpa with it: $P). */
export function writeDemoPublicKey(dataDir: string, c: MerchantCredentials): string {
  const file = path.resolve(dataDir, 'demo-merchant.pub.pem');
  writeFileSync(file, c.publicKeyPem);
  return file;
}

/** Copy-paste curl commands that pay a sandbox order, read its status and the day's ledger. */
export function demoInstructions(
  baseUrl: string,
  c: MerchantCredentials,
  opsToken: string,
  now: Date,
  publicKeyFile: string,
): string {
  const orderId = 'demo-order-1';
  const payment = JSON.stringify({
    merchantIdentifier: c.merchantIdentifier,
    orderId,
    amount: 10000,
    productDescription: 'Demo order',
    payerVpa: 'success@sandbox',
  });
  const status = JSON.stringify({ merchantIdentifier: c.merchantIdentifier, orderId, version: 13 });
  const today = istDate(now);
  const ledger = JSON.stringify({ startDateTime: today, endDateTime: today, status: 'ALL' });
  const mandate = demoMandateData(c, today);
  return [
    'Demo merchant:',
    `  merchantIdentifier ${c.merchantIdentifier}`,
    `  secretKey          ${c.secretKey}`,
    `  apiKey             ${c.apiKey}`,
    `  encryptionKeyId    ${c.encryptionKeyId}`,
    `  operator token     ${opsToken}`,
    '',
    'The guides (docs/) use these as shell variables; paste this line in the shell you try them in:',
    `  export B=${baseUrl} M=${c.merchantIdentifier} S='${c.secretKey}' K=${c.apiKey} E=${c.encryptionKeyId} T=${opsToken} P=${publicKeyFile}`,
    '',
    'Pay an order as a sandbox payer (success@sandbox pays, failure@sandbox declines, noanswer@sandbox never answers):',
    `  curl -s -X POST ${baseUrl}/sandbox/v1/payments -H 'Content-Type: application/json' -d '${payment}'`,
    '',
    'Read its status (the checksum header is HMAC-SHA256 of this exact body with the secret key):',
    `  curl -s -X POST ${baseUrl}/api/payments/v1/status -H 'Content-Type: application/json' -H 'checksum: ${hmacSha256Hex(c.secretKey, status)}' -d '${status}'`,
    '',
    "Today's ledger (IST), with the API key:",
    `  curl -s -X POST ${baseUrl}/api/v1/ledger -H 'Content-Type: application/json' -H 'X-API-Key: ${c.apiKey}' -d '${ledger}'`,
    '',
    'Register a UPI AutoPay mandate (payerVpa is RSA-OAEP-encrypted with the public key; the sandbox payer approves it in a second):',
    `  curl -s -X POST '${baseUrl}/transactU?v=13' --data-urlencode 'data=${mandate}' --data-urlencode 'checksum=${hmacSha256Hex(c.secretKey, mandate)}'`,
    '',
    "Take a payment through Zaakpay's hosted checkout, as merchants' kits do: post a signed /transactU?v=8 form (a new orderId each time), open the address it prints in a browser, pay with a test instrument; the result comes back signed to the sandbox's return page:",
    `  ${demoCheckoutCommand(baseUrl, c)}`,
    '',
    'Provision another merchant:',
    `  curl -s -X POST ${baseUrl}/ops/v1/merchants -H 'Authorization: Bearer ${opsToken}' -H 'Content-Type: application/json' -d '{"name":"Acme"}'`,
    '',
    'Or with the operator CLI, which finds this gateway in .data/gateway.json (every command: docs/operators/cli.md):',
    '  npm run -s cli -- merchant create --name Acme',
    '  npm run -s cli -- webhooks list --table',
  ].join('\n');
}

/**
 * One shell line: builds the custom checkout's `data` (returning to the sandbox's return page),
 * signs it with openssl as the merchant's code would, posts it as a browser would (Accept HTML) and
 * prints where the gateway sends the browser: the hosted checkout page.
 */
export function demoCheckoutCommand(baseUrl: string, c: MerchantCredentials): string {
  const returnUrl = `${baseUrl}/sandbox/v1/checkout/return?merchantIdentifier=${c.merchantIdentifier}`;
  const data = `{\\"merchantIdentifier\\":\\"${c.merchantIdentifier}\\",\\"returnUrl\\":\\"${returnUrl}\\",\\"orderDetail\\":{\\"orderId\\":\\"demo-checkout-$(date +%s)\\",\\"amount\\":\\"25000\\",\\"currency\\":\\"INR\\",\\"productDescription\\":\\"Demo checkout\\"}}`;
  return [
    `data="${data}";`,
    `curl -s -o /dev/null -w '%{redirect_url}\\n' '${baseUrl}/transactU?v=8' -H 'Accept: text/html'`,
    `--data-urlencode "data=$data"`,
    `--data-urlencode "checksum=$(printf %s "$data" | openssl dgst -sha256 -hmac '${c.secretKey}' | cut -d' ' -f2)"`,
  ].join(' ');
}

/** A create request for a demo mandate of today (IST): Adhoc, up to 5,000 rupees a debit, for a year. */
function demoMandateData(c: MerchantCredentials, today: string): string {
  const payerVpa = publicEncrypt(
    { key: c.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from('success@sandbox'),
  ).toString('base64');
  const nextYear = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;
  return JSON.stringify({
    merchantIdentifier: c.merchantIdentifier,
    encryptionKeyId: c.encryptionKeyId,
    mode: '0',
    orderDetail: { orderId: `demo-mandate-${today}`, amount: '500000', currency: 'INR', productDescription: 'Demo mandate' },
    paymentInstrument: {
      paymentMode: 'upiCollectMandate',
      upiMandate: {
        action: 'create',
        payerVpa,
        mandateConfig: { firstDebit: false, frequency: 'Adhoc', startDate: today, endDate: nextYear },
      },
    },
  });
}

/** Time-skipping mode: read the gateway's time and move it on (to 08:00 IST tomorrow, outside the peak windows). */
export function timeTravelInstructions(baseUrl: string, now: Date): string {
  const tomorrow = istDate(new Date(now.getTime() + 24 * 3600_000));
  return [
    'Time skipping: the clock runs at wall-clock pace and jumps only when you skip it.',
    `  curl -s ${baseUrl}/sandbox/v1/time`,
    `  curl -s -X POST ${baseUrl}/sandbox/v1/time/skip -H 'Content-Type: application/json' -d '{"seconds":900}'`,
    `  curl -s -X POST ${baseUrl}/sandbox/v1/time/skip -H 'Content-Type: application/json' -d '{"until":"${tomorrow} 08:00:00"}'`,
  ].join('\n');
}
