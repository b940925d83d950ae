import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

describe('Operator API: PATCH /ops/v1/merchants/:merchantIdentifier', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Settings')));

  const patch = (id: string, body: unknown, token = gw.rt.config.OPS_TOKEN) =>
    request(`${gw.baseUrl}/ops/v1/merchants/${id}`, {
      method: 'PATCH',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { authorization: `Bearer ${token}` },
    });

  it('changes the webhook address, its body format and auto-refund, and the next request sees them', async () => {
    const res = await patch(merchant.merchantIdentifier, {
      webhookUrl: 'https://shop.example/hooks',
      webhookFormat: 'json',
      autoRefund: true,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {
      success: true,
      data: {
        merchantIdentifier: merchant.merchantIdentifier,
        name: 'Settings',
        webhookUrl: 'https://shop.example/hooks',
        webhookFormat: 'json',
        autoRefund: true,
      },
    });
    const stored = await gw.rt.merchants.findById(merchant.merchantIdentifier);
    assert.equal(stored?.autoRefund, true);
    assert.equal(stored?.webhookFormat, 'json');

    const partial = await patch(merchant.merchantIdentifier, { webhookUrl: null });
    assert.equal(partial.json.data.webhookUrl, null);
    assert.equal(partial.json.data.autoRefund, true, 'fields not sent stay as they were');
  });

  it('refuses bad input with 400, a bad token with 401, an unknown merchant with 404, changing nothing', async () => {
    const before = await gw.rt.merchants.findById(merchant.merchantIdentifier);
    const cases: [() => ReturnType<typeof patch>, number, string][] = [
      [() => patch(merchant.merchantIdentifier, '{"autoRefund":'), 400, '2001'],
      [() => patch(merchant.merchantIdentifier, {}), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { autoRefund: 'yes' }), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { webhookFormat: 'xml' }), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { webhookUrl: 'ftp://x.example' }), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { name: 'Renamed' }), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { autoRefund: false }, 'wrong-token-wrong-token-wrong'), 401, '2014'],
      [() => patch('f'.repeat(32), { autoRefund: false }), 404, '2042'],
    ];
    for (const [send, status, code] of cases) {
      const res = await send();
      assert.equal(res.status, status);
      assert.deepEqual([res.json.success, res.json.message.code], [false, code]);
    }
    assert.deepEqual(await gw.rt.merchants.findById(merchant.merchantIdentifier), before);
  });
});
