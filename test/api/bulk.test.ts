import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { fetchTxn, seedOrder } from '../support/ledger';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { refund, refundFinished } from '../support/refunds';

const ids = (res: { json: any }) => res.json.data.map((r: { orderid: string }) => r.orderid);
/** The record's checksum as a merchant verifies it: HMAC of the record's JSON without `checksum`. */
function verifies(record: Record<string, unknown>, secretKey: string): boolean {
  const { checksum, ...rest } = record;
  return checksum === hmacSha256Hex(secretKey, JSON.stringify(rest));
}

describe('Bulk transactions: POST /api/v1/fetchtxn', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Bulk'));
  });

  it('returns a successful payment of the day with every field as received, signed, with its refunds', async () => {
    const orderId = newOrderId('bulk');
    await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      amount: 50_050,
      productDescription: 'Thali',
      product1Description: 'Rice',
      product3Description: 'Dal',
      buyerEmail: 'ravi@example.in',
      bankCode: 'SBIN',
    });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    await refund(gw, merchant, { orderId, updateDesired: '22', amount: '1000', merchantRefId: 'bulk-r1' });
    await refundFinished(gw, merchant.merchantIdentifier, orderId, 'bulk-r1');
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    const res = await fetchTxn(gw, merchant.apiKey, {
      txnDate: formatIstDateTime(t!.successAt!).slice(0, 10),
      status: 'success',
    });
    assert.equal(res.status, 200);
    assert.equal(res.json.success, true);
    const [record] = res.json.data;
    assert.deepEqual(Object.keys(record), [
      'txnInitiatedDate',
      'txnSuccessDate',
      'orderid',
      'txnid',
      'amount',
      'paymentSource',
      'brand',
      'cardType',
      'buyerName',
      'buyerEmail',
      'status',
      'approvalCode',
      'productDescription',
      'productDescription1',
      'productDescription2',
      'productDescription3',
      'productDescription4',
      'checksum',
      'bankName',
      'cardNumber',
      'ipAddress',
      'refundDetail',
    ]);
    assert.deepEqual(
      { ...record, checksum: undefined },
      {
        txnInitiatedDate: formatIstDateTime(t!.createdAt),
        txnSuccessDate: formatIstDateTime(t!.successAt!),
        orderid: orderId,
        txnid: t!.txnId,
        amount: 500.5,
        paymentSource: 'Net Banking',
        brand: null,
        cardType: null,
        buyerName: null,
        buyerEmail: 'ravi@example.in',
        status: 'Success',
        approvalCode: Number(t!.authCode), // a number, as Zaakpay's sample (434221)
        productDescription: 'Thali',
        productDescription1: 'Rice',
        productDescription2: null,
        productDescription3: 'Dal',
        productDescription4: null,
        checksum: undefined,
        bankName: t!.instrument.kind === 'NETBANKING' ? t!.instrument.bankName : '',
        cardNumber: null,
        ipAddress: t!.ipAddress,
        refundDetail: [{ refundReferenceNumber: 'bulk-r1', createdAt: formatIstDateTime(t!.refunds[0]!.createdAt), amount: 10 }],
      },
    );
    assert.ok(verifies(record, merchant.secretKey), 'the record checksum verifies');
    assert.ok(!verifies({ ...record, amount: 500.51 }, merchant.secretKey), 'and would not for a changed record');
  });

  it('gives refundDetail as an empty array, never null, when nothing was refunded (a failed refund included)', async () => {
    const orderId = newOrderId('bulk');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    await refund(gw, merchant, { orderId, updateDesired: '14', merchantRefId: 'bulk-f1', updateReason: 'sandbox fail' });
    await refundFinished(gw, merchant.merchantIdentifier, orderId, 'bulk-f1');
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.equal(t!.refunds[0]!.status, 'FAILED');
    const res = await fetchTxn(gw, merchant.apiKey, {
      txnDate: formatIstDateTime(t!.successAt!).slice(0, 10),
      status: 'success',
    });
    const [record] = res.json.data;
    assert.deepEqual([record.orderid, record.refundDetail], [orderId, []]);
    assert.ok(verifies(record, merchant.secretKey), 'the record checksum covers the empty array');
  });

  it('lists only successes of that IST day, by success time then txnId, in pages', async () => {
    const m = merchant.merchantIdentifier;
    const dayStart = new Date(Date.UTC(2026, 4, 9, 18, 30)); // 2026-05-10 00:00 IST
    const at = (minutes: number) => new Date(dayStart.getTime() + minutes * 60_000);
    const first = await seedOrder(gw, m, { createdAt: at(-600), successAt: at(0) }); // initiated the day before
    const second = await seedOrder(gw, m, { createdAt: at(5), status: 'PartialRefund' });
    const delayed = await seedOrder(gw, m, { createdAt: at(-3000), successAt: at(700), delayedSuccess: true });
    await seedOrder(gw, m, { createdAt: at(10), status: 'Failure' });
    await seedOrder(gw, m, { createdAt: at(11), status: 'Pending' });
    await seedOrder(gw, m, { createdAt: at(-10), successAt: new Date(dayStart.getTime() - 1) }); // the day before
    await seedOrder(gw, m, { createdAt: at(1439), successAt: at(1440) }); // the day after
    const res = await fetchTxn(gw, merchant.apiKey, { txnDate: '2026-05-10', status: 'success' });
    assert.deepEqual(
      ids(res),
      [first, second, delayed].map((t) => t.orderId),
    );
    assert.equal(res.json.data[0].txnSuccessDate, '2026-05-10 00:00:00');
    const page = (pageNumber: number) =>
      fetchTxn(gw, merchant.apiKey, { txnDate: '2026-05-10', status: 'success', pageSize: 1, pageNumber });
    const pages = await Promise.all([1, 2, 3, 4].map(page));
    assert.deepEqual(pages.slice(0, 3).map(ids), [[first.orderId], [second.orderId], [delayed.orderId]]);
    assert.equal(pages[3]!.json.data, 'No transaction found');
  });

  it('defaults to page 1 of 10 records', async () => {
    const dayStart = new Date(Date.UTC(2026, 7, 14, 18, 30)); // 2026-08-15 00:00 IST
    const seeded = [];
    for (let i = 0; i < 11; i++) {
      seeded.push(await seedOrder(gw, merchant.merchantIdentifier, { createdAt: new Date(dayStart.getTime() + i * 60_000) }));
    }
    const res = await fetchTxn(gw, merchant.apiKey, { txnDate: '2026-08-15', status: 'success' });
    assert.deepEqual(
      ids(res),
      seeded.slice(0, 10).map((t) => t.orderId),
    );
  });

  it('says so in text when no transaction is found', async () => {
    const res = await fetchTxn(gw, merchant.apiKey, { txnDate: '2026-06-01', status: 'success' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { success: true, data: 'No transaction found' });
  });

  it("answers only for the key's merchant", async () => {
    await seedOrder(gw, merchant.merchantIdentifier, { createdAt: new Date(Date.UTC(2026, 6, 1, 5, 0)) });
    const other = await gw.newMerchant('Other bulk');
    const res = await fetchTxn(gw, other.apiKey, {
      txnDate: '2026-07-01',
      status: 'success',
      merchantIdentifier: merchant.merchantIdentifier,
    });
    assert.deepEqual(res.json, { success: true, data: 'No transaction found' });
  });

  it('accepts a checksum header over the exact body and refuses a wrong one with 401', async () => {
    const body = JSON.stringify({ txnDate: '2026-06-01', status: 'success' });
    assert.equal((await fetchTxn(gw, merchant.apiKey, body, merchant.secretKey)).status, 200);
    const wrong = await fetchTxn(gw, merchant.apiKey, body, 'not-the-secret-key');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.json.message.code, '2011');
    // The signature is checked over the bytes before they are parsed: a wrongly signed body that is not JSON is 401 too.
    const unsignedGarbage = await fetchTxn(gw, merchant.apiKey, '{"txnDate":', 'not-the-secret-key');
    assert.deepEqual([unsignedGarbage.status, unsignedGarbage.json.message.code], [401, '2011'], unsignedGarbage.text);
    const signedGarbage = await fetchTxn(gw, merchant.apiKey, '{"txnDate":', merchant.secretKey);
    assert.deepEqual([signedGarbage.status, signedGarbage.json.message.code], [400, '100'], signedGarbage.text);
  });

  describe('bad input: 400 with code 100 "Validation Failed", never a 500', () => {
    const cases: [string, object | string][] = [
      ['malformed JSON', '{"txnDate":'],
      ['a missing txnDate', { status: 'success' }],
      ['a date and time', { txnDate: '2026-06-01 10:00', status: 'success' }],
      ['a date that does not exist', { txnDate: '2026-02-29', status: 'success' }],
      ['a status other than success', { txnDate: '2026-06-01', status: 'failed' }],
      ['pageSize 501', { txnDate: '2026-06-01', status: 'success', pageSize: 501 }],
      ['pageSize 0', { txnDate: '2026-06-01', status: 'success', pageSize: 0 }],
      ['pageNumber 0', { txnDate: '2026-06-01', status: 'success', pageNumber: 0 }],
      ['pageNumber as a string', { txnDate: '2026-06-01', status: 'success', pageNumber: '2' }],
    ];
    for (const [what, body] of cases) {
      it(what, async () => {
        const res = await fetchTxn(gw, merchant.apiKey, body);
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.json, { success: false, message: { code: '100', text: 'Validation Failed' } });
        assert.ok(res.headers.get('x-error-detail'), 'the detail, for the developer');
      });
    }

    it('a missing or wrong API key: 401', async () => {
      const res = await fetchTxn(gw, 'wrong', { txnDate: '2026-06-01', status: 'success' });
      assert.equal(res.status, 401);
      assert.equal(res.json.message.code, '2013');
    });
  });
});
