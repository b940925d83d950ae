import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { REFUND_REPLAY_WINDOW_MS } from '../../src/domain/refund';
import { RefundRequestRepository } from '../../src/store/refund-request-repository';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { formBody, legacyChecksum, type Pairs } from '../support/checkout';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { refundFinished } from '../support/refunds';

/**
 * A refund request without a merchantRefId is idempotent on its signed text for a day: a captured
 * request posted again (or the merchant's retry) answers as the first and refunds nothing more.
 */
describe('Refunds without a merchantRefId: the same signed request within a day is one refund', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let skippedMs = 0;
  before(async () => {
    gw = await startTestGateway({}, { now: () => new Date(Date.now() + skippedMs) });
    merchant = await gw.newMerchant('Refund Replays');
  });
  after(() => gw.stop());

  async function paidOrder(amount = 10_000): Promise<string> {
    const orderId = newOrderId('rr');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, amount, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return orderId;
  }
  const partialData = (orderId: string, amount: string) =>
    JSON.stringify({
      merchantIdentifier: merchant.merchantIdentifier,
      mode: '0',
      orderDetail: { orderId, amount },
      updateDesired: '22',
      updateReason: 'customer request',
    });
  /** /updateTxn with `data` and its checksum, the form encoded as `encode` writes it. */
  const post = (
    data: string,
    encode: (d: string, sum: string) => string = (d, sum) => new URLSearchParams({ data: d, checksum: sum }).toString(),
  ) =>
    request(`${gw.baseUrl}/updateTxn`, {
      body: encode(data, hmacSha256Hex(merchant.secretKey, data)),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const refundsOf = async (orderId: string) =>
    (await storedTransaction(gw, merchant.merchantIdentifier, orderId))!.refunds.map((r) => [r.merchantRefId, r.amountPaise]);

  it('/updateTxn: the same data twice (however the form is encoded) is one refund; another amount a second; after 24 hours a new one', async () => {
    const orderId = await paidOrder();
    const data = partialData(orderId, '2500');
    const first = await post(data);
    assert.equal(first.json.responseCode, '245', first.text);
    const again = await post(data);
    assert.deepEqual(again.json, first.json, 'answers as the first, with its merchantRefId');
    // The checksum first and every character percent-encoded: other bytes, the same signed request.
    const reencoded = await post(
      data,
      (d, sum) => `checksum=${sum}&data=${[...d].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}`,
    );
    assert.deepEqual(reencoded.json, first.json);
    assert.deepEqual(await refundsOf(orderId), [[first.json.merchantRefId, 2500]]);

    const other = await post(partialData(orderId, '1000'));
    assert.equal(other.json.responseCode, '245');
    assert.notEqual(other.json.merchantRefId, first.json.merchantRefId);
    assert.equal((await refundsOf(orderId)).length, 2);

    skippedMs += REFUND_REPLAY_WINDOW_MS - 60_000;
    assert.deepEqual((await post(data)).json, first.json, 'still within the day');
    skippedMs += 61_000;
    const nextDay = await post(data);
    assert.equal(nextDay.json.responseCode, '245');
    assert.notEqual(nextDay.json.merchantRefId, first.json.merchantRefId, 'a day later it is a new request');
    assert.deepEqual(await refundsOf(orderId), [
      [first.json.merchantRefId, 2500],
      [other.json.merchantRefId, 1000],
      [nextDay.json.merchantRefId, 2500],
    ]);
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.equal(t!.refundReservedPaise, 6000);
  });

  it('/updateTxn: five of the same request at once refund once', async () => {
    const orderId = await paidOrder();
    const data = partialData(orderId, '3000');
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(data)));
    assert.deepEqual(new Set(answers.map((a) => `${a.json.responseCode} ${a.json.merchantRefId}`)).size, 1);
    assert.equal((await refundsOf(orderId)).length, 1);
  });

  it('a crash after the request was given its id but before the refund: the retry refunds once, under that id', async () => {
    const orderId = await paidOrder();
    const data = partialData(orderId, '1500');
    // What the gateway stored before it stopped: the request's id, and no refund yet.
    const hash = createHash('sha256')
      .update(JSON.stringify(['updateTxn', merchant.merchantIdentifier, data]))
      .digest('hex');
    await new RefundRequestRepository(gw.rt.store.db).claim({
      hash,
      merchantIdentifier: merchant.merchantIdentifier,
      candidate: 'gw-beforecrash0000',
      now: gw.rt.now(),
      windowMs: REFUND_REPLAY_WINDOW_MS,
    });
    assert.deepEqual(await refundsOf(orderId), []);
    for (let i = 0; i < 2; i++) {
      const retry = await post(data);
      assert.deepEqual([retry.json.responseCode, retry.json.merchantRefId], ['245', 'gw-beforecrash0000']);
    }
    assert.deepEqual(await refundsOf(orderId), [['gw-beforecrash0000', 1500]]);
  });

  it('an order that cannot be refunded (190) stores nothing', async () => {
    const unknown = newOrderId('rr');
    const before = await gw.rt.store.db.collection('refund_requests').countDocuments();
    assert.equal((await post(partialData(unknown, '1000'))).json.responseCode, '190');
    assert.equal(await gw.rt.store.db.collection('refund_requests').countDocuments(), before);
  });

  it('/updatetransaction: the same signed values twice are one refund, even posted under reordered bytes; another amount a second', async () => {
    const orderId = await paidOrder();
    const pairs = (amount: string): Pairs => [
      ['merchantIdentifier', merchant.merchantIdentifier],
      ['orderId', orderId],
      ['mode', '0'],
      ['updateDesired', '22'],
      ['updateReason', 'Test reason'],
      ['amount', amount],
    ];
    const xml = async (body: string) => {
      const res = await fetch(`${gw.baseUrl}/updatetransaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      return /<responsecode>(\d+)<\/responsecode>/.exec(await res.text())?.[1];
    };
    const signed = (p: Pairs) => [...p, ['checksum', legacyChecksum(merchant.secretKey, p)]] as Pairs;
    assert.equal(await xml(formBody(signed(pairs('2000')))), '245');
    assert.equal(await xml(formBody(signed(pairs('2000')))), '245');
    // The checksum moved first: other bytes, the same values signed.
    const [checksum, ...rest] = signed(pairs('2000')).reverse();
    assert.equal(await xml(formBody([checksum!, ...rest.reverse()])), '245');
    assert.deepEqual(
      (await refundsOf(orderId)).map(([, a]) => a),
      [2000],
    );
    assert.equal(await xml(formBody(signed(pairs('1000')))), '245');
    assert.deepEqual(
      (await refundsOf(orderId)).map(([, a]) => a),
      [2000, 1000],
    );
  });

  it('after the bank failed the refund, the same request asks again (a failed refund moved no money); a full refund with an ignored amount answers as the first', async () => {
    const orderId = await paidOrder();
    const full = (reason: string) =>
      JSON.stringify({
        merchantIdentifier: merchant.merchantIdentifier,
        mode: '0',
        // Zaakpay's Node kit sends its form's amount with a full refund too: it is ignored.
        orderDetail: { orderId, amount: '100' },
        updateDesired: '14',
        updateReason: reason,
      });
    const failing = await post(full('sandbox fail'));
    assert.equal(failing.json.responseCode, '230', failing.text);
    const failed = await refundFinished(gw, merchant.merchantIdentifier, orderId, failing.json.merchantRefId);
    assert.equal(failed.refundStatus, 'FAILED');
    const retried = await post(full('sandbox fail'));
    assert.equal(retried.json.responseCode, '230', retried.text);
    assert.notEqual(retried.json.merchantRefId, failing.json.merchantRefId, 'a new refund, not the failed one');
    await refundFinished(gw, merchant.merchantIdentifier, orderId, retried.json.merchantRefId);

    const first = await post(full('customer request'));
    assert.equal(first.json.responseCode, '230', first.text);
    const again = await post(full('customer request'));
    assert.deepEqual(again.json, first.json, 'the retry answers as the first (not 21)');
    const stored = (await storedTransaction(gw, merchant.merchantIdentifier, orderId))!.refunds;
    assert.deepEqual(
      stored.map((r) => r.merchantRefId),
      [failing.json.merchantRefId, retried.json.merchantRefId, first.json.merchantRefId],
    );
  });

  it('with a merchantRefId nothing changes: the id is the key, as before', async () => {
    const orderId = await paidOrder();
    const data = JSON.stringify({
      merchantIdentifier: merchant.merchantIdentifier,
      mode: '0',
      orderDetail: { orderId, amount: '1000' },
      updateDesired: '22',
      updateReason: 'customer request',
      merchantRefId: 'named-1',
    });
    assert.equal((await post(data)).json.merchantRefId, 'named-1');
    assert.equal((await post(data)).json.merchantRefId, 'named-1');
    assert.deepEqual(await refundsOf(orderId), [['named-1', 1000]]);
  });
});
