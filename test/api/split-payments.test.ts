import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';

/** Zaakpay's Split Payment API against the real gateway: real paid orders, the checksum over the exact body. */
describe("Zaakpay's Split Payment API: POST /api/v1/splitTxnByAmount", function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let master: MerchantCredentials;
  let sellerA: MerchantCredentials;
  let sellerB: MerchantCredentials;
  let stranger: MerchantCredentials;
  const url = () => `${gw.baseUrl}/api/v1/splitTxnByAmount`;
  const split = (raw: string, key = master.secretKey, headers: Record<string, string> = {}) =>
    request(url(), { body: raw, headers: { zaakchecksum: createHmac('sha256', key).update(raw).digest('hex'), ...headers } });
  const body = (orderId: string, o: { orderAmount?: unknown; master?: unknown; subs?: unknown[] } = {}) =>
    JSON.stringify({
      orderId,
      orderAmount: o.orderAmount ?? '10000',
      masterMerchantIdentifier: { zaakMerchantIdentifier: master.merchantIdentifier, merchantAmount: o.master ?? '4000' },
      subMerchantIdentifiers: o.subs ?? [
        { zaakMerchantIdentifier: sellerA.merchantIdentifier, merchantAmount: '3500' },
        { zaakMerchantIdentifier: sellerB.merchantIdentifier, merchantAmount: '2500' },
      ],
      isCustomIdentifier: false,
    });
  const txnDoc = (orderId: string) =>
    gw.rt.store.db.collection('transactions').findOne({ _id: `${master.merchantIdentifier}:${orderId}` as never });
  async function paidOrder(amount = 10_000, payerVpa = 'success@sandbox') {
    const orderId = newOrderId('split');
    await sandboxPay(gw, { merchantIdentifier: master.merchantIdentifier, orderId, amount, payerVpa });
    await paymentFinished(gw, master.merchantIdentifier, orderId);
    return orderId;
  }
  const link = async (sub: MerchantCredentials, to: MerchantCredentials) => {
    const res = await request(`${gw.baseUrl}/ops/v1/merchants/${sub.merchantIdentifier}/master`, {
      method: 'PUT',
      body: { masterMerchantIdentifier: to.merchantIdentifier },
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    assert.equal(res.status, 200, res.text);
  };

  before(async () => {
    gw = await sharedGateway();
    master = await gw.newMerchant('Marketplace');
    sellerA = await gw.newMerchant('Seller A');
    sellerB = await gw.newMerchant('Seller B');
    stranger = await gw.newMerchant('Unlinked seller');
    await link(sellerA, master);
    await link(sellerB, master);
  });

  it('records the split once on a paid order: SUCCESS 100, the shares in paise on the transaction', async () => {
    const orderId = await paidOrder();
    const res = await split(body(orderId));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.text, JSON.stringify({ status: 'SUCCESS', errorCode: '100', errorDescription: 'Split recorded', orderId }));
    const doc = await txnDoc(orderId);
    assert.equal(doc!.split.masterMerchantIdentifier, master.merchantIdentifier);
    assert.deepEqual(doc!.split.shares, [
      { merchantIdentifier: master.merchantIdentifier, amountPaise: 4000 },
      { merchantIdentifier: sellerA.merchantIdentifier, amountPaise: 3500 },
      { merchantIdentifier: sellerB.merchantIdentifier, amountPaise: 2500 },
    ]);
    assert.ok(doc!.split.at instanceof Date);

    // Set once: a second split (even another) is refused with 2074 and changes nothing.
    const again = await split(
      body(orderId, { master: '0', subs: [{ zaakMerchantIdentifier: sellerA.merchantIdentifier, merchantAmount: 10000 }] }),
    );
    assert.equal(again.status, 200);
    assert.equal(again.json.status, 'FAILURE');
    assert.equal(again.json.errorCode, '2074');
    assert.deepEqual((await txnDoc(orderId))!.split, doc!.split);
  });

  it('takes merchantIdentifier, JSON integer amounts and padded identifiers as its sample sends them', async () => {
    const orderId = await paidOrder();
    const raw = JSON.stringify({
      orderId,
      orderAmount: 10000,
      masterMerchantIdentifier: { merchantIdentifier: master.merchantIdentifier, merchantAmount: 0 },
      subMerchantIdentifiers: [
        { merchantIdentifier: ` ${sellerA.merchantIdentifier} `, merchantAmount: 6000 },
        { merchantIdentifier: sellerB.merchantIdentifier, merchantAmount: 4000 },
      ],
      isCustomIdentifier: 'false',
    });
    const res = await split(raw);
    assert.equal(res.json.status, 'SUCCESS', res.text);
    assert.deepEqual(
      (await txnDoc(orderId))!.split.shares.map((s: { amountPaise: number }) => s.amountPaise),
      [0, 6000, 4000],
    );
  });

  it("isCustomIdentifier true names sub-merchants by the master's own names for them; an unknown name is 2076", async () => {
    const ops = (sub: MerchantCredentials, json: object) =>
      request(`${gw.baseUrl}/ops/v1/merchants/${sub.merchantIdentifier}/master`, {
        method: 'PUT',
        body: json,
        headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
      });
    const [sellerC, sellerD, otherMaster, otherSeller] = await Promise.all(
      ['Seller C', 'Seller D', 'Other marketplace', 'Other seller'].map((n) => gw.newMerchant(n)),
    );
    const linked = await ops(sellerC, { masterMerchantIdentifier: master.merchantIdentifier, customIdentifier: 'shop-c' });
    assert.deepEqual(linked.json.data, {
      merchantIdentifier: sellerC.merchantIdentifier,
      masterMerchantIdentifier: master.merchantIdentifier,
      customIdentifier: 'shop-c',
    });
    assert.equal(
      (await ops(sellerD, { masterMerchantIdentifier: master.merchantIdentifier, customIdentifier: 'shop_d.1' })).status,
      200,
    );
    assert.equal(
      (await ops(otherSeller, { masterMerchantIdentifier: otherMaster.merchantIdentifier, customIdentifier: 'shop-z' })).status,
      200,
    );
    // One sub-merchant per name and master.
    const taken = await ops(stranger, { masterMerchantIdentifier: master.merchantIdentifier, customIdentifier: 'shop-c' });
    assert.deepEqual([taken.status, taken.json.message.code], [409, '2062'], taken.text);
    assert.equal(
      await gw.rt.store.db
        .collection('merchants')
        .countDocuments({ _id: stranger.merchantIdentifier as never, masterMerchantIdentifier: { $exists: true } }),
      0,
    );

    const custom = (orderId: string, names: string[], field = 'zaakMerchantIdentifier') =>
      JSON.stringify({
        orderId,
        orderAmount: '10000',
        masterMerchantIdentifier: { zaakMerchantIdentifier: master.merchantIdentifier, merchantAmount: '4000' },
        subMerchantIdentifiers: names.map((n, i) => ({ [field]: n, merchantAmount: i === 0 ? '3500' : '2500' })),
        isCustomIdentifier: true,
      });
    const orderId = await paidOrder();
    // Names no sub-merchant of this master carries: its merchantIdentifier, another master's name, none at all.
    for (const names of [
      [sellerC.merchantIdentifier, 'shop_d.1'],
      ['shop-c', 'shop-z'],
      ['shop-x', 'shop_d.1'],
    ]) {
      const res = await split(custom(orderId, names));
      assert.deepEqual([res.status, res.json.status, res.json.errorCode], [200, 'FAILURE', '2076'], res.text);
      assert.match(res.json.errorDescription, /custom identifier/);
    }
    assert.equal((await txnDoc(orderId))!.split, undefined, 'nothing was recorded');

    const res = await split(custom(orderId, [' shop-c ', 'shop_d.1'], 'merchantIdentifier'));
    assert.equal(res.json.status, 'SUCCESS', res.text);
    assert.deepEqual((await txnDoc(orderId))!.split.shares, [
      { merchantIdentifier: master.merchantIdentifier, amountPaise: 4000 },
      { merchantIdentifier: sellerC.merchantIdentifier, amountPaise: 3500 },
      { merchantIdentifier: sellerD.merchantIdentifier, amountPaise: 2500 },
    ]);

    // Linked again without a name, the name is gone.
    const relinked = await ops(sellerC, { masterMerchantIdentifier: master.merchantIdentifier });
    assert.equal(relinked.json.data.customIdentifier, null);
    const later = await split(custom(await paidOrder(), ['shop-c', 'shop_d.1']));
    assert.equal(later.json.errorCode, '2076', later.text);
  });

  it('refuses with 180 a checksum of other bytes, another key or none, and 101 an unknown master, all HTTP 200 as Zaakpay answers', async () => {
    const orderId = await paidOrder();
    const raw = body(orderId);
    const expect = async (p: Promise<{ status: number; json: any }>, status: number, code: string) => {
      const res = await p;
      assert.equal(res.status, status, JSON.stringify(res.json));
      assert.equal(res.json.status, 'FAILURE');
      assert.equal(res.json.errorCode, code);
    };
    await expect(split(raw, sellerA.secretKey), 200, '180');
    // Signed, then reformatted: the checksum covers the exact bytes.
    await expect(
      request(url(), {
        body: raw.replace('{', '{ '),
        headers: { zaakchecksum: createHmac('sha256', master.secretKey).update(raw).digest('hex') },
      }),
      200,
      '180',
    );
    await expect(request(url(), { body: raw }), 200, '180');
    await expect(split(raw.replaceAll(master.merchantIdentifier, 'nosuchmerchant1')), 200, '101');
    await expect(split('{"orderId":"x"}'), 200, '101');
    assert.equal((await txnDoc(orderId))!.split, undefined, 'nothing was recorded');
  });

  it('refuses every rule with its code and records nothing', async () => {
    const orderId = await paidOrder();
    const cases: [string, string, number][] = [
      [body(orderId, { orderAmount: '10001', master: '4001' }), '2073', 200], // not the order's amount (shares add up to it)
      [body(orderId, { master: '4001' }), '2072', 200], // shares add to 10001, orderAmount is 10000
      [body(orderId, { subs: [{ zaakMerchantIdentifier: stranger.merchantIdentifier, merchantAmount: '6000' }] }), '2071', 200],
      [body(orderId, { subs: [{ zaakMerchantIdentifier: 'nosuchmerchant1', merchantAmount: '6000' }] }), '2071', 200],
      [
        body(orderId, {
          subs: [
            { zaakMerchantIdentifier: sellerA.merchantIdentifier, merchantAmount: '3000' },
            { zaakMerchantIdentifier: sellerA.merchantIdentifier, merchantAmount: '3000' },
          ],
        }),
        '2070',
        200,
      ],
      [body(orderId, { subs: [{ zaakMerchantIdentifier: master.merchantIdentifier, merchantAmount: '6000' }] }), '2070', 200],
      [
        body(orderId, { master: '10000', subs: [{ zaakMerchantIdentifier: sellerA.merchantIdentifier, merchantAmount: '0' }] }),
        '2070',
        200,
      ],
      [body(orderId, { subs: [] }), '2070', 200],
      [body(orderId, { master: '40.00' }), '2070', 200], // rupees are not paise
      [body(orderId, { master: -1 }), '2070', 200],
      [body(orderId, { subs: [{ merchantAmount: '6000' }] }), '2070', 200],
      [
        body(orderId, {
          subs: [
            {
              zaakMerchantIdentifier: sellerA.merchantIdentifier,
              merchantIdentifier: sellerB.merchantIdentifier,
              merchantAmount: '6000',
            },
          ],
        }),
        '2070',
        200,
      ],
      [body(`${orderId}-unknown`), '190', 200],
    ];
    for (const [raw, code, status] of cases) {
      const res = await split(raw);
      assert.equal(res.status, status, `${raw}: ${res.text}`);
      assert.equal(res.json.errorCode, code, `${raw}: ${res.text}`);
      assert.equal(res.json.status, 'FAILURE');
    }
    assert.equal((await txnDoc(orderId))!.split, undefined, 'nothing was recorded');
    const notJson = await split('{"orderId":');
    assert.equal(notJson.status, 200);
    assert.equal(notJson.json.errorCode, '2001');
  });

  it('refuses an order that is not paid (190) or that a settlement has claimed (2075)', async () => {
    const failed = await paidOrder(10_000, 'failure@sandbox');
    assert.equal((await split(body(failed))).json.errorCode, '190');

    const claimed = await paidOrder();
    // The settlement engine claims a sale with saleSettlementId (the shared data contract).
    await gw.rt.store.db
      .collection('transactions')
      .updateOne(
        { _id: `${master.merchantIdentifier}:${claimed}` as never },
        { $set: { saleSettlementId: `settlement:${master.merchantIdentifier}:2026-11-27` } },
      );
    const res = await split(body(claimed));
    assert.equal(res.json.errorCode, '2075', res.text);
    assert.equal((await txnDoc(claimed))!.split, undefined);
  });

  it('a split racing another for the same order is recorded exactly once', async () => {
    const orderId = await paidOrder();
    const answers = await Promise.all(
      ['4000', '3000', '2000', '1000'].map((m) =>
        split(
          body(orderId, {
            master: m,
            subs: [{ zaakMerchantIdentifier: sellerA.merchantIdentifier, merchantAmount: String(10000 - Number(m)) }],
          }),
        ),
      ),
    );
    const codes = answers.map((a) => a.json.errorCode).sort();
    assert.deepEqual(codes, ['100', '2074', '2074', '2074']);
    const winner = answers.find((a) => a.json.errorCode === '100')!;
    assert.equal(winner.json.status, 'SUCCESS');
  });
});
