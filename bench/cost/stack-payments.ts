import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { StackSecrets } from '../../src/devstack/production/secrets';
import type { StackState } from '../../src/devstack/production/stack';
import { realtimeDeliveryId } from '../../src/temporal/webhook-contract';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { payOnCheckoutPage, postTransactU, v8Data } from '../../test/support/checkout';
import type { TestGateway } from '../../test/support/gateway';
import { request } from '../../test/support/http';
import { runConcurrently } from '../support/load';
import { startLoopbackReceiver, type LoopbackReceiver } from '../support/webhook-receiver';

/**
 * Payments through the running production stack, from outside, as its probes pay: the merchant's
 * signed `POST /transactU?v=8` through Caddy, the hosted page, its pay form, the card typed on the
 * acquirer double's page (production offers UPI by QR only); done when the merchant's receiver,
 * behind the merchant's https site, has acknowledged the payment's webhook.
 */
export interface StackPayer {
  merchant: MerchantCredentials;
  pay(orderId: string): Promise<void>;
  receiver: LoopbackReceiver;
}

const CARD = '4012001037141112';
const PAYMENT_TIMEOUT_MS = 120_000;

export const readStackState = (stateFile: string) => JSON.parse(readFileSync(stateFile, 'utf8')) as StackState;
export const readStackSecrets = (state: StackState) =>
  JSON.parse(readFileSync(path.join(state.dataDir, 'secrets.json'), 'utf8')) as StackSecrets;

/** A merchant whose webhook URL is the merchant's site, and the receiver behind it. */
export async function stackPayer(state: StackState, secrets: StackSecrets): Promise<StackPayer> {
  const receiver = await startLoopbackReceiver(state.ports.merchantReceiver);
  const res = await request(`http://127.0.0.1:${state.ports.ops[0]}/ops/v1/merchants`, {
    body: { name: 'Cost bench chai', webhookUrl: `https://127.0.0.1:${state.ports.merchantSite}/hooks/payments` },
    headers: { authorization: `Bearer ${secrets.OPS_TOKEN}` },
  });
  if (res.status !== 201) throw new Error(`creating the merchant: ${res.status} ${res.text}`);
  const merchant = res.json.data as MerchantCredentials;
  // The checkout helpers take a gateway's address and its bank's: Caddy's public site and the acquirer double.
  const gw = { baseUrl: state.publicUrl, bank: { url: `https://127.0.0.1:${state.ports.acquirer}` } } as unknown as TestGateway;
  const pay = async (orderId: string) => {
    const data = v8Data(merchant, orderId, { returnUrl: 'https://merchant.example/return', orderDetail: { amount: '10000' } });
    const posted = await postTransactU(gw, merchant.secretKey, data, { browser: true });
    if (posted.status !== 303 || !posted.location)
      throw new Error(`checkout answered ${posted.status}: ${posted.text.slice(0, 200)}`);
    await payOnCheckoutPage(gw, posted.location, [['cardNumber', CARD]]);
    await withTimeout(
      receiver.acknowledged(realtimeDeliveryId({ merchantIdentifier: merchant.merchantIdentifier, orderId })),
      orderId,
    );
  };
  return { merchant, pay, receiver };
}

function withTimeout(p: Promise<void>, orderId: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no webhook for ${orderId} within ${PAYMENT_TIMEOUT_MS / 1000} s`)),
      PAYMENT_TIMEOUT_MS,
    );
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** `n` payments, `concurrency` at a time: the seconds they took and the order ids that failed. */
export async function payMany(payer: StackPayer, orderIds: string[], concurrency: number) {
  const failed: string[] = [];
  const began = performance.now();
  await runConcurrently(orderIds.length, concurrency, async (i) => {
    await payer.pay(orderIds[i]!).catch((e: Error) => {
      failed.push(orderIds[i]!);
      console.error(`[cost] ${e.message}`);
    });
  });
  return { seconds: (performance.now() - began) / 1000, failed };
}
