import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { GatewayClient } from '../src/client';

/**
 * The SDK's tests run against the real gateway of the root test harness (real HTTP, store and
 * Temporal, test/support/gateway.ts); each test gets its own merchant and a client for it.
 */
export async function clientFor(gw: TestGateway, merchant?: MerchantCredentials) {
  const m = merchant ?? (await gw.newMerchant('SDK Shop'));
  const client = new GatewayClient({ baseUrl: gw.baseUrl, ...m });
  return { merchant: m, client };
}

/** An operator call to the gateway's ops API (what a merchant's dashboard does for it). */
export async function ops(gw: TestGateway, method: string, path: string, body?: object): Promise<any> {
  const res = await fetch(`${gw.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Points the merchant's webhooks at `url` in `format`; returns its Standard Webhooks signing secret. */
export async function webhooksTo(
  gw: TestGateway,
  merchantIdentifier: string,
  url: string,
  format: 'form' | 'json',
): Promise<string> {
  await ops(gw, 'PATCH', `/ops/v1/merchants/${merchantIdentifier}`, { webhookUrl: url, webhookFormat: format });
  const secrets = await ops(gw, 'GET', `/ops/v1/merchants/${merchantIdentifier}/webhook-signing-secret`);
  return secrets.data.secrets[0].secret as string;
}

export { startTestGateway, type TestGateway };
