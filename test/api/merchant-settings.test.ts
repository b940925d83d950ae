import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { postTransactU, v8Data } from '../support/checkout';

describe('Operator API: PATCH /ops/v1/merchants/:merchantIdentifier', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Settings')));

  const patch = (id: string, body: unknown, token = gw.rt.config.secrets.opsToken) =>
    request(`${gw.baseUrl}/ops/v1/merchants/${id}`, {
      method: 'PATCH',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { authorization: `Bearer ${token}` },
    });

  it('changes the webhook address, its body format, auto-refund, the settlement webhook and the default return URL, and the next request sees them', async () => {
    assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))?.settlementWebhook, false, 'off by default');
    const res = await patch(merchant.merchantIdentifier, {
      webhookUrl: 'https://shop.example/hooks',
      webhookFormat: 'json',
      autoRefund: true,
      settlementWebhook: true,
      defaultReturnUrl: 'https://shop.example/zaakpay/response',
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
        settlementWebhook: true,
        defaultReturnUrl: 'https://shop.example/zaakpay/response',
      },
    });
    const stored = await gw.rt.merchants.findById(merchant.merchantIdentifier);
    assert.equal(stored?.autoRefund, true);
    assert.equal(stored?.settlementWebhook, true);
    assert.equal(stored?.webhookFormat, 'json');
    assert.equal(stored?.defaultReturnUrl, 'https://shop.example/zaakpay/response');

    const partial = await patch(merchant.merchantIdentifier, { webhookUrl: null });
    assert.equal(partial.json.data.webhookUrl, null);
    assert.equal(partial.json.data.autoRefund, true, 'fields not sent stay as they were');
    assert.equal(partial.json.data.settlementWebhook, true, 'fields not sent stay as they were');
    const off = await patch(merchant.merchantIdentifier, { settlementWebhook: false });
    assert.equal(off.json.data.settlementWebhook, false);
    assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))?.settlementWebhook, false);
    const removed = await patch(merchant.merchantIdentifier, { defaultReturnUrl: null });
    assert.equal(removed.json.data.defaultReturnUrl, null);
  });

  it('refuses bad input with 400, a bad token with 401, an unknown merchant with 404, changing nothing', async () => {
    const before = await gw.rt.merchants.findById(merchant.merchantIdentifier);
    const cases: [() => ReturnType<typeof patch>, number, string][] = [
      [() => patch(merchant.merchantIdentifier, '{"autoRefund":'), 400, '2001'],
      [() => patch(merchant.merchantIdentifier, {}), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { autoRefund: 'yes' }), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { settlementWebhook: 'on' }), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { webhookFormat: 'xml' }), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { webhookUrl: 'ftp://x.example' }), 400, '2002'],
      [() => patch(merchant.merchantIdentifier, { defaultReturnUrl: 'javascript:alert(1)' }), 400, '2002'],
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

describe('Operator API: POST /ops/v1/merchants imports a merchant with its own credentials', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => ({ gw } = await gatewayWithNewMerchant('Importer')));
  const create = (body: object) =>
    request(`${gw.baseUrl}/ops/v1/merchants`, { body, headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` } });

  it('keeps the merchantIdentifier and secretKey sent, and its checkouts are signed with them', async () => {
    const merchantIdentifier = `ZPmerchant${Date.now()}`;
    const res = await create({ name: 'Moved Shop', merchantIdentifier, secretKey: '0678056d96914a8583fb518caf42828a' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.data.merchantIdentifier, merchantIdentifier);
    assert.equal(res.json.data.secretKey, '0678056d96914a8583fb518caf42828a');
    const orderId = `imp-${Date.now()}`;
    const posted = await postTransactU(gw, '0678056d96914a8583fb518caf42828a', {
      ...v8Data(res.json.data, orderId),
    });
    assert.equal(posted.status, 303, posted.text);
  });

  it('refuses a taken identifier (409) and a malformed one or a short secret (400), storing nothing', async () => {
    const merchantIdentifier = `taken${Date.now()}`;
    assert.equal((await create({ name: 'First', merchantIdentifier })).status, 201);
    const first = await gw.rt.merchants.findById(merchantIdentifier);
    const taken = await create({ name: 'Second', merchantIdentifier, secretKey: 'another-secret-1234' });
    assert.deepEqual([taken.status, taken.json.message.code], [409, '2047']);
    assert.deepEqual(await gw.rt.merchants.findById(merchantIdentifier), first);
    for (const body of [
      { name: 'Bad', merchantIdentifier: 'ab1' },
      { name: 'Bad', merchantIdentifier: 'has-a-dash' },
      { name: 'Bad', merchantIdentifier: 'x'.repeat(65) },
      { name: 'Bad', secretKey: 'short' },
      { name: 'Bad', secretKey: 'tab\tinside-the-secret' },
    ]) {
      const res = await create(body);
      assert.deepEqual([res.status, res.json.message.code], [400, '2002'], JSON.stringify(body));
    }
  });
});
