import { strict as assert } from 'node:assert';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

/**
 * GET /ops/v1/merchants/:merchantIdentifier/settlements against the real gateway and store:
 * settlements seeded as the settlement engine leaves them, answered newest first and only the
 * merchant's; every refusal in the ops `{success, message}` envelope.
 */
describe('Operator API: a merchant’s settlements', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let ops: string;
  let merchant: string;
  let other: string;
  const breakGlass = () => ({ authorization: `Bearer ${gw.rt.config.secrets.opsToken}` });
  const list = (m: string, query = '', headers: Record<string, string> = breakGlass()) =>
    request(`${ops}/merchants/${m}/settlements${query}`, { headers });

  const settlement = (merchantIdentifier: string, settlementDate: string, o: Record<string, unknown>) => ({
    _id: `settlement:${merchantIdentifier}:${settlementDate}` as never,
    merchantIdentifier,
    settlementDate,
    lineCount: 1,
    grossPaise: 10000,
    refundsPaise: 0,
    chargebacksPaise: 0,
    feePaise: 200,
    taxPaise: 36,
    carriedInPaise: 0,
    netPaise: 9764,
    carriedOutPaise: 0,
    createdAt: new Date(),
    ...o,
  });

  /** A token of these scopes only, issued with the break-glass token. */
  async function tokenOf(scopes: string[]) {
    const name = `ms-${scopes.join('-')}-${Date.now().toString(36)}`;
    const res = await request(`${ops}/operator-tokens`, { body: { name, scopes }, headers: breakGlass() });
    assert.equal(res.status, 201, res.text);
    return { authorization: `Bearer ${res.json.data.token as string}` };
  }

  before(async () => {
    gw = await sharedGateway();
    ops = `${gw.baseUrl}/ops/v1`;
    merchant = (await gw.newMerchant('Settled Stores')).merchantIdentifier;
    other = (await gw.newMerchant('Other Stores')).merchantIdentifier;
    await gw.rt.store.db.collection('settlements').insertMany([
      settlement(merchant, '2026-11-23', { state: 'paid', utr: 'UTR2611230001' }),
      settlement(merchant, '2026-11-25', {
        state: 'payout_refused',
        carriedOutPaise: 9764,
        failureReason: 'no settlement bank account',
      }),
      settlement(merchant, '2026-11-24', { state: 'held' }),
      settlement(other, '2026-11-26', { state: 'open' }),
    ]);
  });

  it("answers the merchant's settlements newest date first, as stored, and no other merchant's", async () => {
    const res = await list(merchant);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.success, true);
    assert.equal(res.json.data.merchantIdentifier, merchant);
    const got = res.json.data.settlements as {
      _id: string;
      state: string;
      failureReason?: string;
      utr?: string;
      netPaise: number;
    }[];
    assert.deepEqual(
      got.map((s) => [s._id, s.state]),
      [
        [`settlement:${merchant}:2026-11-25`, 'payout_refused'],
        [`settlement:${merchant}:2026-11-24`, 'held'],
        [`settlement:${merchant}:2026-11-23`, 'paid'],
      ],
    );
    assert.equal(got[0].failureReason, 'no settlement bank account');
    assert.equal(got[2].utr, 'UTR2611230001');
    assert.equal(got[2].netPaise, 9764);
    const others = await list(other);
    assert.deepEqual(
      (others.json.data.settlements as { _id: string }[]).map((s) => s._id),
      [`settlement:${other}:2026-11-26`],
    );
  });

  it('answers at most ?limit of them, the newest; a merchant never settled has none', async () => {
    const two = await list(merchant, '?limit=2');
    assert.equal(two.status, 200, two.text);
    assert.deepEqual(
      (two.json.data.settlements as { settlementDate: string }[]).map((s) => s.settlementDate),
      ['2026-11-25', '2026-11-24'],
    );
    const fresh = (await gw.newMerchant('Never Settled')).merchantIdentifier;
    const none = await list(fresh);
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.json, { success: true, data: { merchantIdentifier: fresh, settlements: [] } });
  });

  it('refuses a bad query with 400 (2002) in the ops envelope', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=2.5', '?limit=ten', '?limit=', '?state=held']) {
      const res = await list(merchant, query);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.json.success, false, query);
      assert.equal(res.json.message.code, '2002', query);
    }
  });

  it('an unknown merchant is 404 (2042)', async () => {
    const res = await list('nosuchmerchant1');
    assert.equal(res.status, 404, res.text);
    assert.deepEqual(res.json, { success: false, message: { code: '2042', text: 'No such merchant' } });
  });

  it('needs an operator token (401, 2014) of the money or read scope (403, 2019 for another)', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }] as Record<string, string>[]) {
      const res = await list(merchant, '', headers);
      assert.equal(res.status, 401, res.text);
      assert.equal(res.json.success, false);
      assert.equal(res.json.message.code, '2014');
    }
    const codec = await list(merchant, '', await tokenOf(['codec']));
    assert.equal(codec.status, 403, codec.text);
    assert.equal(codec.json.message.code, '2019');
    assert.equal(codec.json.message.text, "The operator token's scopes do not include this operation: needs the money scope");
    for (const scope of ['money', 'read']) {
      const res = await list(merchant, '?limit=1', await tokenOf([scope]));
      assert.equal(res.status, 200, `${scope}: ${res.text}`);
      assert.equal(res.json.data.settlements.length, 1, scope);
    }
  });
});
