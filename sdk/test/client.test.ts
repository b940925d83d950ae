import { strict as assert } from 'node:assert';
import { GatewayClient } from '../src/client';
import { GatewayError } from '../src/errors';
import type { VpaPadding } from '../src/payer-vpa';
import { newOrderId, paymentFinished, sandboxPay } from '../../test/support/payments';
import { istAt, istDate } from '../../test/support/mandates';
import { linkEntry, newBatchId } from '../../test/support/payment-links';
import { clientFor, startTestGateway, type TestGateway } from './gateway';

describe('SDK client: every merchant API against a real gateway', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  // The gateway's one clock, at 08:00 IST tomorrow: outside the mandates' peak windows.
  const clock = istAt(new Date(), 1, '08:00:00');
  const today = istDate(clock);
  before(async () => {
    gw = await startTestGateway({ SANDBOX_MANDATE_PAYER_SECONDS: '0.2', SANDBOX_REFUND_SECONDS: '0.2' }, { now: () => clock });
  });
  after(() => gw?.stop());

  async function paid(merchantIdentifier: string, amount = 90_000) {
    const orderId = newOrderId('sdk');
    const res = await sandboxPay(gw, { merchantIdentifier, orderId, amount, payerVpa: 'success@sandbox' });
    assert.equal(res.status, 202, res.text);
    await paymentFinished(gw, merchantIdentifier, orderId);
    return orderId;
  }

  it('status: a paid order (100), an unknown one (status false), and a wrong secret thrown as 401 with its code', async () => {
    const { merchant, client } = await clientFor(gw);
    const orderId = await paid(merchant.merchantIdentifier);
    const found = await client.status(orderId);
    assert.equal(found.status, true);
    assert.equal(found.message.code, 100);
    assert.equal(found.data.orders[0]!.orderDetail.orderId, orderId);
    assert.equal(found.data.orders[0]!.txnStatus, '0');
    const unknown = await client.status('no-such-order');
    assert.equal(unknown.status, false);
    const wrong = new GatewayClient({
      baseUrl: gw.baseUrl,
      merchantIdentifier: merchant.merchantIdentifier,
      secretKey: 'f'.repeat(32),
    });
    const error = await wrong.status(orderId).then(
      () => assert.fail('a wrong secret must be refused'),
      (e: unknown) => e as GatewayError,
    );
    assert.ok(error instanceof GatewayError);
    assert.equal(error.httpStatus, 401);
    assert.match(error.code, /^\d+$/);
    assert.ok(error.text.length > 0);
  });

  it('QR: created (208), repeated (128 with the first data), and its signed image address serves a PNG', async () => {
    const { client } = await clientFor(gw);
    const orderId = newOrderId('qr');
    const first = await client.createQr({ orderId, amount: 25_000, productDescription: 'Chai', width: 300, height: 300 });
    assert.equal(first.success, true);
    assert.equal(first.message.code, '208');
    const again = await client.createQr({ orderId, amount: 25_000, productDescription: 'Chai' });
    assert.equal(again.message.code, '128');
    assert.equal(again.data.qrDetails?.url, first.data.qrDetails?.url);
    const image = await fetch(client.qrImageUrl(first.data.qrDetails!.url, 300, 300));
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    const forged = await fetch(client.qrImageUrl(first.data.qrDetails!.url, 300, 300).replace('width=300', 'width=400'));
    assert.equal(forged.status, 401);
  });

  it('ledger and bulk: async iterators walk every page; a refused request throws with the contract code', async () => {
    const { merchant, client } = await clientFor(gw);
    const orders = [
      await paid(merchant.merchantIdentifier),
      await paid(merchant.merchantIdentifier),
      await paid(merchant.merchantIdentifier),
    ];
    let calls = 0;
    const counting = new GatewayClient({
      ...client.options,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const ledger = [];
    for await (const t of counting.ledger({ startDateTime: today, endDateTime: today, status: 'SUCCESS', pageSize: 1 }))
      ledger.push(t);
    assert.deepEqual(ledger.map((t) => t.orderId).sort(), [...orders].sort());
    assert.equal(calls, 3, 'one request per page, none after the last');
    // A page past the last is Zaakpay's 1035 "No record found." (success: false): an empty page.
    assert.deepEqual(await client.ledgerPage({ startDateTime: today, endDateTime: today, status: 'SUCCESS', pageNumber: 9 }), {
      transactions: [],
      isNextPageAvailable: false,
    });
    const bulk = [];
    for await (const r of client.bulk({ txnDate: today, pageSize: 2 })) bulk.push(r);
    assert.deepEqual(bulk.map((r) => r.orderid).sort(), [...orders].sort());
    for (const r of bulk) assert.equal(client.bulkRecordIsAuthentic(r), true);
    assert.equal(client.bulkRecordIsAuthentic({ ...bulk[0]!, amount: 1 }), false);
    await assert.rejects(
      () => client.ledgerPage({ startDateTime: today, endDateTime: today, status: 'ALL', pageSize: 10_001 }),
      (e: GatewayError) => e.code === '1030' && e.httpStatus === 400,
    );
    const noKey = new GatewayClient({ ...client.options, apiKey: 'wrong-key' });
    await assert.rejects(
      () => noKey.bulkPage({ txnDate: today }),
      (e: GatewayError) => e.httpStatus === 401,
    );
  });

  it('payment links: a batch, with a failed entry reported per entry', async () => {
    const { client } = await clientFor(gw);
    const answer = await client.createPaymentLinks({
      batchId: newBatchId(),
      details: [
        linkEntry({ linkExpireBy: linkEntryExpiry() }),
        linkEntry({ amount: 5, linkExpireBy: linkEntryExpiry() }),
      ] as never,
    });
    assert.equal(answer.statusCode, 207);
    assert.match(answer.data[0]!.link ?? '', /\/pl\//);
    assert.equal(answer.data[1]!.link, null);
    assert.ok(answer.data[1]!.errorDescription);
  });

  it('mandates: create with payerVpa in each padding (1101), notify (1109), execute before its time (1121); a wrong key id throws 2015', async () => {
    const { merchant, client } = await clientFor(gw);
    const base = (orderId: string) => ({
      orderDetail: { orderId, amount: '500000', currency: 'INR' as const, productDescription: 'Monthly milk' },
      returnUrl: 'https://shop.example/return',
    });
    const creates: string[] = [];
    for (const padding of ['oaep-sha256', 'oaep-sha1', 'pkcs1'] as VpaPadding[]) {
      const orderId = newOrderId('mandate');
      const created = await client.createMandate({
        ...base(orderId),
        payerVpa: 'success@sandbox',
        padding,
        paymentInstrument: {
          paymentMode: 'upiCollectMandate',
          upiMandate: {
            mandateConfig: { firstDebit: false, frequency: 'Adhoc', startDate: today, endDate: istDate(clock, 365) },
          },
        },
      });
      assert.equal(created.responseCode, '1101', JSON.stringify(created));
      creates.push(orderId);
    }
    const parent = creates[0]!;
    for (let i = 0; i < 100; i++) {
      const state = await gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId: parent });
      if (state?.state === 'ACTIVE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const debit = newOrderId('debit');
    const debitRequest = {
      orderDetail: { orderId: debit, amount: '25000', productDescription: 'Milk, June' },
      payerVpa: 'success@sandbox',
      paymentInstrument: {
        paymentMode: 'upiCollectMandate' as const,
        upiMandate: { mandateParentOrderId: parent, executionDate: `${istDate(clock, 2)} 08:00:00`, autoExecute: false },
      },
    };
    const notified = await client.notifyMandate(debitRequest);
    assert.equal(notified.responseCode, '1109', JSON.stringify(notified));
    assert.equal(notified.bankPostData?.amount, '25000');
    const executed = await client.executeMandate(debitRequest);
    assert.equal(executed.responseCode, '1121', JSON.stringify(executed));
    const wrongKey = new GatewayClient({ ...client.options, encryptionKeyId: 'no-such-key' });
    await assert.rejects(
      () =>
        wrongKey.notifyMandate({ ...debitRequest, orderDetail: { ...debitRequest.orderDetail, orderId: newOrderId('debit') } }),
      (e: GatewayError) => e.code === '2015' && e.httpStatus === 400,
    );
  });

  it('refunds (/updateTxn) partial then full, seen by the status API and /checkTxn', async () => {
    const { merchant, client } = await clientFor(gw);
    const orderId = await paid(merchant.merchantIdentifier, 100_000);
    const partial = await client.refund({ orderId, amount: 30_000, updateReason: 'one item returned', merchantRefId: 'r1' });
    assert.equal(partial.responseCode, '245', JSON.stringify(partial));
    const rest = await client.refund({ orderId, updateReason: 'order cancelled', merchantRefId: 'r2' });
    assert.equal(rest.responseCode, '230', JSON.stringify(rest));
    const tooMuch = await client.refund({ orderId, amount: 1, updateReason: 'again', merchantRefId: 'r3' });
    assert.equal(tooMuch.responseCode, '201');
    const status = await client.status(orderId);
    assert.deepEqual(
      status.data.orders[0]!.refundDetails.map((r) => [r.merchantRefId, r.amount]),
      [
        ['r1', '30000'],
        ['r2', '70000'],
      ],
    );
    const legacy = await client.checkTxn(orderId);
    assert.equal(legacy.success, true);
    assert.equal(legacy.orders[0]!.orderDetail.orderId, orderId);
    const unknown = await client.checkTxn('no-such-order');
    assert.equal(unknown.success, false);
    assert.equal(unknown.responseCode, '190');
  });

  it('checkout from a server: a UPI QR order answers 208 with the QR; a refusal throws with its code', async () => {
    const { client } = await clientFor(gw);
    const orderId = newOrderId('upi');
    const answer = await client.checkoutUpi({
      returnUrl: 'https://shop.example/return',
      orderDetail: { orderId, amount: '90000', productDescription: 'Chai' },
      paymentInstrument: { paymentMode: 'upiqr' },
    });
    assert.equal(answer.responseCode, '208');
    assert.ok(answer.bankPostData?.link && answer.bankPostData.txnid);
    await assert.rejects(
      () =>
        client.checkoutUpi({
          orderDetail: { orderId: newOrderId('upi'), amount: '90000' },
          paymentInstrument: { paymentMode: 'upiqr' },
        }),
      (e: GatewayError) => e.code === '182',
    );
  });
});

/** `dd/MM/yyyy HH:mm:ss` a day after the gateway's clock (tomorrow 08:00 IST), as payment links take it. */
function linkEntryExpiry(): string {
  const t = new Date(istAt(new Date(), 2, '08:00:00').getTime() + 5.5 * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getUTCDate())}/${p(t.getUTCMonth() + 1)}/${t.getUTCFullYear()} 08:00:00`;
}
