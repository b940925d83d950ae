import { strict as assert } from 'node:assert';
import { cliEnvFor, runCli } from '../support/cli';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

/** The audit trail: operators' actions on a merchant are recorded, listed newest first, never editable. */
describe('Operator API: the audit trail', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let base: string;
  let auth: Record<string, string>;
  const newMerchant = async (name: string) => {
    const res = await request(`${base}/merchants`, { body: { name }, headers: auth });
    assert.equal(res.status, 201, res.text);
    return res.json.data.merchantIdentifier as string;
  };
  before(async () => {
    gw = await sharedGateway();
    base = `${gw.baseUrl}/ops/v1`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });

  it("records a hold and its release with the operator, the address and the merchant; lists one merchant's, newest first, a page at a time", async () => {
    const merchant = await newMerchant('Audited Stores');
    const other = await newMerchant('Other Audited');
    for (const [m, action] of [
      [merchant, 'hold'],
      [other, 'hold'],
      [merchant, 'release'],
    ] as const) {
      const res = await request(`${base}/merchants/${m}/settlements/${action}`, { method: 'POST', headers: auth });
      assert.equal(res.status, 200, res.text);
    }
    const listed = await request(`${base}/audit?merchantIdentifier=${merchant}`, { headers: auth });
    assert.equal(listed.status, 200, listed.text);
    const records = listed.json.data.records as {
      action: string;
      actor: { kind: string };
      from: string;
      at: string;
      merchantIdentifier: string;
    }[];
    assert.deepEqual(
      records.map((r) => r.action),
      ['settlements.released', 'settlements.held', 'merchant.created'],
    );
    for (const r of records) {
      assert.equal(r.merchantIdentifier, merchant);
      assert.equal(r.actor.kind, 'operator');
      assert.match(r.from, /127\.0\.0\.1/);
    }
    const page2 = await request(
      `${base}/audit?merchantIdentifier=${merchant}&limit=1&before=${encodeURIComponent(records[0]!.at)}`,
      {
        headers: auth,
      },
    );
    assert.deepEqual(
      page2.json.data.records.map((r: { action: string }) => r.action),
      ['settlements.held'],
    );
    const all = await request(`${base}/audit?limit=500`, { headers: auth });
    assert.ok(all.json.data.records.some((r: { merchantIdentifier: string }) => r.merchantIdentifier === other));

    const cli = await runCli(['audit', '--merchant', merchant, '--limit', '1'], cliEnvFor(gw));
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(
      JSON.parse(cli.stdout).records.map((r: { action: string }) => r.action),
      ['settlements.released'],
    );
  });

  it('records a fee plan set and a sub-merchant linked, with what was set', async () => {
    const master = await newMerchant('Audited Master');
    const sub = await newMerchant('Audited Seller');
    const plan = {
      upi: { percentBps: 25, fixedPaise: 0 },
      card: { debit: { percentBps: 40, fixedPaise: 0 }, credit: { percentBps: 180, fixedPaise: 200 } },
      netbanking: { percentBps: 0, fixedPaise: 1200 },
      wallet: { percentBps: 150, fixedPaise: 0 },
      refundReturnsFee: true,
    };
    const put = await request(`${base}/merchants/${sub}/fee-plan`, { method: 'PUT', body: plan, headers: auth });
    assert.equal(put.status, 200, put.text);
    const linked = await request(`${base}/merchants/${sub}/master`, {
      method: 'PUT',
      body: { masterMerchantIdentifier: master, customIdentifier: 'seller-1' },
      headers: auth,
    });
    assert.equal(linked.status, 200, linked.text);
    const records = (await request(`${base}/audit?merchantIdentifier=${sub}`, { headers: auth })).json.data.records as {
      action: string;
      detail: Record<string, unknown>;
    }[];
    assert.deepEqual(
      records.map((r) => r.action),
      ['sub_merchant.linked', 'fee_plan.set', 'merchant.created'],
    );
    assert.deepEqual(JSON.parse(String(records[1]!.detail.feePlan)), plan);
    assert.equal(records[0]!.detail.masterMerchantIdentifier, master);
  });

  it('refuses a bad query (400) and has no way to write or remove a record; it needs the operator token', async () => {
    for (const q of ['limit=0', 'limit=501', 'before=yesterday', 'merchantIdentifier=a!', 'extra=1']) {
      const res = await request(`${base}/audit?${q}`, { headers: auth });
      assert.equal(res.status, 400, `${q}: ${res.text}`);
      assert.equal(res.json.success, false);
    }
    const before = await gw.rt.store.db.collection('audit_records').countDocuments();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await request(`${base}/audit`, { method, body: {}, headers: auth });
      assert.ok([404, 405].includes(res.status), `${method}: ${res.status}`);
    }
    assert.equal(await gw.rt.store.db.collection('audit_records').countDocuments(), before);
    assert.equal((await request(`${base}/audit`)).status, 401);
  });
});
