import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { refund, refundFinished, updateTxn } from '../support/refunds';

describe('Refunds: POST /updateTxn', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  async function paidOrder(payer: Record<string, string> = { payerVpa: 'success@sandbox' }, amount = 10_000): Promise<string> {
    const orderId = newOrderId('rf');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, amount, ...payer });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return orderId;
  }
  const status = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json.data
      .orders[0];

  it('partial then full refund: 245, 230, refunds SUCCESS with an rrn, txnStatus 4 then 3', async () => {
    const orderId = await paidOrder();
    const partial = await refund(gw, merchant, { orderId, updateDesired: '22', amount: '2500', merchantRefId: 'r-1' });
    assert.equal(partial.status, 200);
    assert.deepEqual(partial.json, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderDetail: { orderId },
      responseCode: '245',
      responseDescription: 'Transaction Partial Refund Initiated',
      merchantRefId: 'r-1',
    });
    assert.equal((await status(orderId)).txnStatus, '4');
    assert.equal((await refundFinished(gw, merchant.merchantIdentifier, orderId, 'r-1')).refundStatus, 'SUCCESS');

    const full = await refund(gw, merchant, { orderId, merchantRefId: 'r-2' });
    assert.equal(full.json.responseCode, '230');
    await refundFinished(gw, merchant.merchantIdentifier, orderId, 'r-2');
    const order = await status(orderId);
    assert.equal(order.txnStatus, '3');
    assert.deepEqual(
      order.refundDetails.map((r: Record<string, string>) => [r.merchantRefId, r.amount, r.refundStatus]),
      [
        ['r-1', '2500', 'SUCCESS'],
        ['r-2', '7500', 'SUCCESS'],
      ],
    );
    assert.ok(order.refundDetails.every((r: Record<string, string>) => /^\d{12}$/.test(r.rrn)));
    assert.equal((await refund(gw, merchant, { orderId, merchantRefId: 'r-3' })).json.responseCode, '201', 'nothing remains');
  });

  it('a refund the bank fails ("sandbox fail") is FAILED and its amount may be refunded again', async () => {
    const orderId = await paidOrder();
    const failed = await refund(gw, merchant, { orderId, merchantRefId: 'f-1', updateReason: 'sandbox fail' });
    assert.equal(failed.json.responseCode, '230');
    assert.equal((await refundFinished(gw, merchant.merchantIdentifier, orderId, 'f-1')).refundStatus, 'FAILED');
    const order = await status(orderId);
    assert.equal(order.txnStatus, '0', 'nothing stands refunded: Success again');
    assert.deepEqual(order.refundDetails, [{ merchantRefId: 'f-1', amount: '10000', rrn: 'NA', refundStatus: 'FAILED' }]);
    assert.equal((await refund(gw, merchant, { orderId, merchantRefId: 'f-2' })).json.responseCode, '230');
  });

  it('the same merchantRefId twice answers as the first time and refunds once; another amount is 21', async () => {
    const orderId = await paidOrder();
    const first = await refund(gw, merchant, { orderId, updateDesired: '22', amount: '1000', merchantRefId: 'same' });
    const again = await refund(gw, merchant, { orderId, updateDesired: '22', amount: '1000', merchantRefId: 'same' });
    assert.deepEqual(again.json, first.json);
    const other = await refund(gw, merchant, { orderId, updateDesired: '22', amount: '1500', merchantRefId: 'same' });
    assert.equal(other.json.responseCode, '21');
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.equal(t?.refunds.length, 1);
    assert.equal(t?.refundReservedPaise, 1000);
  });

  it('generates a merchantRefId when none is sent', async () => {
    const orderId = await paidOrder();
    const res = await refund(gw, merchant, { orderId, updateDesired: '22', amount: '900' });
    assert.match(res.json.merchantRefId, /^gw-[0-9a-f]{16}$/);
  });

  it('ten concurrent partial refunds of 30% never refund more than the amount', async () => {
    const orderId = await paidOrder();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        refund(gw, merchant, { orderId, updateDesired: '22', amount: '3000', merchantRefId: `c-${i}` }),
      ),
    );
    const codes = answers.map((a) => a.json.responseCode).sort();
    assert.deepEqual(codes, [...Array(3).fill('245'), ...Array(7).fill('201')].sort());
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.equal(t?.refunds.length, 3);
    assert.equal(t?.refundReservedPaise, 9000);
    assert.equal(t?.status, 'PartialRefund');
  });

  it('refuses orders that are unknown, failed, pending or another merchant’s with 190', async () => {
    const declined = await paidOrder({ payerVpa: 'failure@sandbox' });
    const pendingId = newOrderId('rf');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId: pendingId, payerVpa: 'noanswer@sandbox' });
    const other = await gw.newMerchant('Other');
    const othersOrder = newOrderId('rf');
    await sandboxPay(gw, { merchantIdentifier: other.merchantIdentifier, orderId: othersOrder, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, other.merchantIdentifier, othersOrder);
    for (const orderId of [newOrderId('none'), declined, pendingId, othersOrder]) {
      const res = await refund(gw, merchant, { orderId });
      assert.equal(res.status, 200);
      assert.equal(res.json.responseCode, '190', orderId);
    }
    assert.deepEqual((await storedTransaction(gw, other.merchantIdentifier, othersOrder))?.refunds, []);
  });

  it('answers 184, 185, 186 and 187 for updateDesired and updateReason', async () => {
    const orderId = await paidOrder();
    const cases: [Record<string, unknown>, string][] = [
      [{ updateReason: 'test reason' }, '184'],
      [{ updateDesired: '7', updateReason: 'test reason' }, '185'],
      [{ updateDesired: '8', updateReason: 'test reason' }, '185'],
      [{ updateDesired: '14' }, '186'],
      [{ updateDesired: '14', updateReason: 'bad!' }, '187'],
    ];
    for (const [fields, code] of cases) {
      const res = await updateTxn(gw, merchant, { orderDetail: { orderId }, ...fields });
      assert.equal(res.status, 200);
      assert.equal(res.json.responseCode, code, JSON.stringify(fields));
    }
    assert.deepEqual((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.refunds, []);
  });

  it('mode "1" (live merchants) and mode 1 as a number are accepted and ignored; any other mode is 2002 (HTTP 200)', async () => {
    const orderId = await paidOrder();
    const live = await updateTxn(gw, merchant, {
      mode: '1',
      orderDetail: { orderId, amount: '1000' },
      updateDesired: '22',
      updateReason: 'customer request',
      merchantRefId: 'live-1',
    });
    assert.equal(live.json.responseCode, '245', live.text);
    // LetsTryFoods' bytes: mode as a number, the rest as its code writes it.
    const text = `{"merchantIdentifier":"${merchant.merchantIdentifier}","mode":1,"orderDetail":{"orderId":"${orderId}","amount":"1000"},"updateDesired":"22","updateReason":"customer request","merchantRefId":"live-2"}`;
    const numeric = await updateTxn(gw, merchant, text);
    assert.equal(numeric.json.responseCode, '245', numeric.text);
    for (const mode of ['2', 2, 'live']) {
      const bad = await updateTxn(gw, merchant, {
        mode,
        orderDetail: { orderId },
        updateDesired: '14',
        updateReason: 'test reason',
      });
      assert.deepEqual([bad.status, bad.json.responseCode], [200, '2002'], JSON.stringify(mode));
      assert.match(bad.json.responseDescription, /mode/);
    }
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.refunds.length, 2);
  });

  it('missing checksum is 189 and a wrong one 180, both HTTP 200 as Zaakpay answers, and nothing changes', async () => {
    const orderId = await paidOrder();
    const data = { orderDetail: { orderId }, updateDesired: '14', updateReason: 'test reason' };
    const blank = await updateTxn(gw, merchant, data, null);
    assert.equal(blank.status, 200);
    assert.equal(blank.json.responseCode, '189');
    const wrong = await updateTxn(gw, merchant, data, 'a'.repeat(64));
    assert.equal(wrong.status, 200);
    assert.deepEqual(wrong.json, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderDetail: { orderId },
      responseCode: '180',
      responseDescription: 'Checksum does not match',
      merchantRefId: null,
    });
    assert.deepEqual((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.refunds, []);
  });

  it('malformed requests are HTTP 200 with their code in the same shape (415 keeps its status), never a 500', async () => {
    const orderId = await paidOrder();
    const post = (body: string, type = 'application/x-www-form-urlencoded') =>
      request(`${gw.baseUrl}/updateTxn`, { body, headers: { 'content-type': type } });
    const bad: [() => Promise<{ status: number; json: any }>, number, string][] = [
      [() => post('checksum=abc'), 200, '2002'],
      [() => post('data=%7Bnot-json&checksum=abc'), 200, '180'], // names no merchant: nothing can match
      [() => post('data=1&data=2&checksum=abc'), 200, '2005'],
      [() => post('data=%FF%FE&checksum=abc'), 200, '2005'],
      [() => post(`data=${encodeURIComponent('{"orderDetail":{}}')}&checksum=abc`), 200, '180'],
      [() => post('data=%7Bnot-json'), 200, '189'],
      [() => post('{}', 'application/json'), 415, '2003'],
      [
        () => updateTxn(gw, merchant, { orderDetail: { orderId }, updateDesired: '22', updateReason: 'test reason' }),
        200,
        '2002',
      ],
      [
        () =>
          updateTxn(gw, merchant, { orderDetail: { orderId, amount: 100.5 }, updateDesired: '22', updateReason: 'test reason' }),
        200,
        '2002',
      ],
      [
        () =>
          updateTxn(gw, merchant, { orderDetail: { orderId, amount: '-5' }, updateDesired: '22', updateReason: 'test reason' }),
        200,
        '2002',
      ],
      [
        () => updateTxn(gw, merchant, { orderDetail: { orderId: 5 }, updateDesired: '14', updateReason: 'test reason' }),
        200,
        '2002',
      ],
    ];
    for (const [send, httpStatus, code] of bad) {
      const res = await send();
      assert.equal(res.status, httpStatus);
      assert.equal(res.json.responseCode, code);
      assert.ok('responseDescription' in res.json);
    }
    const twice = await updateTxn(
      gw,
      merchant,
      `{"merchantIdentifier":"${merchant.merchantIdentifier}","orderDetail":{"orderId":"${orderId}","amount":"100","amount":"9000"},"updateDesired":"22","updateReason":"test reason"}`,
    );
    assert.deepEqual([twice.status, twice.json.responseCode], [200, '2001'], 'a key given twice in data is refused');
    const unknown = await updateTxn(gw, merchant, {
      merchantIdentifier: 'f'.repeat(32),
      orderDetail: { orderId },
      updateDesired: '14',
      updateReason: 'test reason',
    });
    assert.deepEqual([unknown.status, unknown.json.responseCode], [200, '2012']);
    assert.deepEqual((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.refunds, []);
  });

  it('the Node kit\'s amounts: "" on a full refund is no amount, a number is paise; other amounts still refused', async () => {
    const full = await paidOrder();
    const empty = await updateTxn(gw, merchant, {
      orderDetail: { orderId: full, amount: '' },
      updateDesired: '14',
      updateReason: 'customer request',
      merchantRefId: 'node-full',
    });
    assert.deepEqual([empty.status, empty.json.responseCode], [200, '230'], empty.text);
    assert.deepEqual(
      (await storedTransaction(gw, merchant.merchantIdentifier, full))?.refunds.map((r) => r.amountPaise),
      [10_000],
    );

    const numbered = await paidOrder();
    const wholeAsNumber = await updateTxn(gw, merchant, {
      orderDetail: { orderId: numbered, amount: 10_000 },
      updateDesired: '14',
      updateReason: 'customer request',
      merchantRefId: 'node-number',
    });
    assert.deepEqual([wholeAsNumber.status, wholeAsNumber.json.responseCode], [200, '230'], wholeAsNumber.text);
    const refunded = await storedTransaction(gw, merchant.merchantIdentifier, numbered);
    assert.deepEqual(
      refunded?.refunds.map((r) => r.amountPaise),
      [refunded?.amountPaise],
      "the number is the whole order's paise",
    );
    assert.equal(refunded?.amountPaise, 10_000);
    const partial = await paidOrder();
    const partAsNumber = await updateTxn(gw, merchant, {
      orderDetail: { orderId: partial, amount: 2500 },
      updateDesired: '22',
      updateReason: 'customer request',
      merchantRefId: 'node-part',
    });
    assert.deepEqual([partAsNumber.status, partAsNumber.json.responseCode], [200, '245'], partAsNumber.text);
    assert.deepEqual(
      (await storedTransaction(gw, merchant.merchantIdentifier, partial))?.refunds.map((r) => r.amountPaise),
      [2500],
    );

    // Not loosened: "" is no amount, which a partial refund needs; numbers must be whole paise.
    for (const amount of ['', 0, -1, 25.5, '25.00', 1e12, true]) {
      const refused = await updateTxn(gw, merchant, {
        orderDetail: { orderId: partial, amount },
        updateDesired: '22',
        updateReason: 'customer request',
      });
      assert.deepEqual([refused.status, refused.json.responseCode], [200, '2002'], JSON.stringify(amount));
    }
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, partial))?.refunds.length, 1);
  });
});
