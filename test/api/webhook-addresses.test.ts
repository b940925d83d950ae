import { strict as assert } from 'node:assert';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

describe('Webhook addresses refused when set (PATCH /ops/v1/merchants/:id, POST /ops/v1/merchants)', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_ALLOW_LOOPBACK: 'false' });
  });
  after(async () => gw?.stop());
  const ops = () => ({ authorization: `Bearer ${gw.rt.config.secrets.opsToken}` });

  const refused = [
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'http://2130706433/hook',
    'http://0177.0.0.1/hook',
    'http://0x7f.1/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.9/hook',
    'http://192.168.1.1/hook',
    'http://169.254.10.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[::ffff:10.0.0.1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[fe80::1]/hook',
    'http://[fc00::1]/hook',
    'http://[fd00:ec2::254]/hook',
    'ftp://93.184.216.34/hook',
  ];

  it('refuses each range (IPv4, IPv6, mapped, octal, decimal, a name resolving to one), changing nothing', async () => {
    const m = await gw.newMerchant('Addr');
    for (const webhookUrl of refused) {
      const res = await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}`, {
        method: 'PATCH',
        headers: ops(),
        body: { webhookUrl },
      });
      assert.equal(res.status, 400, webhookUrl);
      assert.equal(res.json.success, false, webhookUrl);
      const created = await request(`${gw.baseUrl}/ops/v1/merchants`, { headers: ops(), body: { name: 'Refused', webhookUrl } });
      assert.equal(created.status, 400, `create ${webhookUrl}`);
    }
    assert.equal((await gw.rt.merchants.findById(m.merchantIdentifier))?.webhookUrl ?? null, null);
  });

  it('accepts a public address', async () => {
    const m = await gw.newMerchant('Addr ok');
    const res = await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}`, {
      method: 'PATCH',
      headers: ops(),
      body: { webhookUrl: 'https://93.184.216.34/hook' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal((await gw.rt.merchants.findById(m.merchantIdentifier))?.webhookUrl, 'https://93.184.216.34/hook');
  });
});
