import { strict as assert } from 'node:assert';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

const plan = {
  upi: { percentBps: 25, fixedPaise: 0 },
  card: { debit: { percentBps: 40, fixedPaise: 0 }, credit: { percentBps: 180, fixedPaise: 200 } },
  networks: { AMEX: { credit: { percentBps: 300, fixedPaise: 0 } } },
  netbanking: { percentBps: 0, fixedPaise: 1200 },
  wallet: { percentBps: 150, fixedPaise: 0 },
  refundReturnsFee: true,
};

/** The operator's settlement endpoints: fee plans, hold and release, needs attention, differences. */
describe('Operator API: settlements', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let base: string;
  let auth: Record<string, string>;
  let merchant: string;

  before(async () => {
    gw = await sharedGateway();
    base = `${gw.baseUrl}/ops/v1`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
    const res = await request(`${base}/merchants`, { body: { name: 'Settling Stores' }, headers: auth });
    assert.equal(res.status, 201, res.text);
    merchant = res.json.data.merchantIdentifier;
  });

  /** A settlement of the merchant on `date`, written to the store as the engine would have left it; its id. */
  async function storedSettlement(date: string, fields: { state: string; netPaise: number } & Record<string, unknown>) {
    const _id = `settlement:${merchant}:${date}`;
    await gw.rt.store.db
      .collection('settlements')
      .insertOne({ _id: _id as never, merchantIdentifier: merchant, settlementDate: date, createdAt: new Date(), ...fields });
    return _id;
  }

  it('a merchant without a plan has the default; PUT sets its own, GET reads it back', async () => {
    const before = await request(`${base}/merchants/${merchant}/fee-plan`, { headers: auth });
    assert.equal(before.status, 200, before.text);
    assert.equal(before.json.data.source, 'default');
    assert.equal(before.json.data.feePlan.upi.percentBps, 0);
    const put = await request(`${base}/merchants/${merchant}/fee-plan`, { method: 'PUT', body: plan, headers: auth });
    assert.equal(put.status, 200, put.text);
    const after = await request(`${base}/merchants/${merchant}/fee-plan`, { headers: auth });
    assert.deepEqual(after.json.data, { merchantIdentifier: merchant, source: 'merchant', feePlan: plan });
  });

  it('refuses a bad plan with the 400 envelope and changes nothing; an unknown merchant is 404 2042', async () => {
    for (const bad of [
      { ...plan, upi: { percentBps: 10_001, fixedPaise: 0 } },
      { ...plan, upi: { percentBps: 1.5, fixedPaise: 0 } },
      { ...plan, upi: { percentBps: 25, fixedPaise: -1 } },
      { ...plan, refundReturnsFee: 'yes' },
      { ...plan, extra: 1 },
      { upi: plan.upi },
    ]) {
      const res = await request(`${base}/merchants/${merchant}/fee-plan`, { method: 'PUT', body: bad, headers: auth });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.success, false);
      assert.equal(res.json.message.code, '2002');
    }
    const after = await request(`${base}/merchants/${merchant}/fee-plan`, { headers: auth });
    assert.deepEqual(after.json.data.feePlan, plan);
    const unknown = await request(`${base}/merchants/nosuchmerchant1/fee-plan`, { method: 'PUT', body: plan, headers: auth });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.message.code, '2042');
  });

  it('hold and release: the flag is stored, the hold answers the payouts it cannot stop, release the settlements it told', async () => {
    // One settlement of the merchant is at the bank (payout requested): the hold cannot stop it.
    const atBank = await storedSettlement('2026-11-02', { state: 'payout_requested', netPaise: 7000 });
    const hold = await request(`${base}/merchants/${merchant}/settlements/hold`, { method: 'POST', headers: auth });
    assert.equal(hold.status, 200, hold.text);
    assert.deepEqual(hold.json.data, { merchantIdentifier: merchant, held: true, payoutRequested: [atBank] });
    await gw.rt.store.db.collection('settlements').deleteOne({ _id: atBank as never });
    const stored = await gw.rt.store.db
      .collection<{ _id: string; held: boolean }>('settlement_settings')
      .findOne({ _id: merchant });
    assert.equal(stored?.held, true);
    const release = await request(`${base}/merchants/${merchant}/settlements/release`, { method: 'POST', headers: auth });
    assert.deepEqual(release.json.data, { merchantIdentifier: merchant, held: false, released: [] });
  });

  it('needs attention lists refused payouts not carried yet; a settlement is read by id; unknown is 404 2060', async () => {
    const id = await storedSettlement('2026-11-03', {
      state: 'payout_refused',
      netPaise: 5000,
      carriedOutPaise: 5000,
      failureReason: 'no settlement bank account',
    });
    const attention = await request(`${base}/settlements/needs-attention`, { headers: auth });
    assert.equal(attention.status, 200, attention.text);
    assert.ok(attention.json.data.refused.some((s: { _id: string }) => s._id === id));
    const one = await request(`${base}/settlements/${encodeURIComponent(id)}`, { headers: auth });
    assert.equal(one.json.data.failureReason, 'no settlement bank account');
    const none = await request(`${base}/settlements/${encodeURIComponent(`settlement:${merchant}:2026-01-01`)}`, {
      headers: auth,
    });
    assert.equal(none.status, 404);
    assert.equal(none.json.message.code, '2060');
  });

  it('differences: a bad date is 400; a good one answers a list', async () => {
    const bad = await request(`${base}/settlements/differences?date=2026-02-30`, { headers: auth });
    assert.equal(bad.status, 400, bad.text);
    const good = await request(`${base}/settlements/differences?date=2026-11-03`, { headers: auth });
    assert.equal(good.status, 200, good.text);
    assert.ok(Array.isArray(good.json.data.differences));
  });

  it('every endpoint refuses a request without the operator token (401)', async () => {
    for (const [method, path] of [
      ['GET', `/merchants/${merchant}/fee-plan`],
      ['PUT', `/merchants/${merchant}/fee-plan`],
      ['POST', `/merchants/${merchant}/settlements/hold`],
      ['POST', `/merchants/${merchant}/settlements/release`],
      ['GET', '/settlements/needs-attention'],
      ['GET', '/settlements/differences'],
    ] as const) {
      const res = await request(`${base}${path}`, { method, ...(method === 'PUT' ? { body: plan } : {}) });
      assert.equal(res.status, 401, `${method} ${path}`);
    }
  });
});
