import { strict as assert } from 'node:assert';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { hmac, postForm } from '../support/checkout';
import { dashboardUser, type FormClient } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { ledger } from '../support/ledger';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { startReceiver } from '../support/receiver';

/**
 * One code table for every surface (design.md, Outcome codes): merchants' code branches on
 * Zaakpay's published codes (LetsTryFoods maps 400 to failed and anything unknown to pending), so a
 * decline is 400 and a failure the service decides is 183 on the status API, /checkTxn, the webhook
 * and the ledger alike, while the store and the dashboard keep the gateway's own reason.
 */
describe('Outcome codes: Zaakpay’s on every surface, the gateway’s reason in the store and the dashboard', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let owner: FormClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Outcome Codes'));
    receiver = await startReceiver();
    await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'json' });
    ({ client: owner } = await dashboardUser(gw, merchant.merchantIdentifier, 'owner'));
  });
  after(() => receiver?.close());

  const status = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json.data
      .orders[0];
  // Zaakpay's PHP kit 1.1 sends /checkTxn's data unquoted.
  const checkTxn = async (orderId: string) => {
    const data = `{merchantIdentifier:${merchant.merchantIdentifier},mode:0,orderDetail:{orderId:${orderId}}}`;
    return (
      await postForm(`${gw.baseUrl}/checkTxn?v=5`, [
        ['data', data],
        ['checksum', hmac(merchant.secretKey, data)],
      ])
    ).json;
  };
  const ledgerRow = async (orderId: string) => {
    const today = formatIstDateTime(gw.rt.now()).slice(0, 10);
    const res = await ledger(gw, merchant.apiKey, { startDateTime: today, endDateTime: today, status: 'ALL', pageSize: 10000 });
    return res.json.data.transactions.find((t: { orderId: string }) => t.orderId === orderId);
  };
  const webhookEntry = async (orderId: string) => {
    for (let i = 0; i < 100; i++) {
      for (const call of receiver.calls) {
        const txn = JSON.parse(JSON.parse(call.body).txnData).txns.find((t: { orderId: string }) => t.orderId === orderId);
        if (txn) return txn;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no webhook for ${orderId}`);
  };
  async function finished(payerVpa: string): Promise<string> {
    const orderId = newOrderId('oc');
    const res = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa });
    assert.ok([200, 202].includes(res.status), res.text);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return orderId;
  }

  it('a bank decline is 400 "declined by the issuing bank" everywhere; the store and the dashboard keep 1022', async () => {
    const orderId = await finished('failure@sandbox');
    const published = ['400', 'The transaction was declined by the issuing bank.'];
    const s = await status(orderId);
    assert.deepEqual([s.txnStatus, s.responseCode, s.responseDescription], ['1', ...published]);
    const c = await checkTxn(orderId);
    assert.deepEqual([c.responseCode, c.responseDescription], published);
    assert.deepEqual([c.orders[0].responseCode, c.orders[0].responseDescription], published);
    const w = await webhookEntry(orderId);
    assert.deepEqual([w.responseCode, w.responseDescription], published);
    const l = await ledgerRow(orderId);
    assert.deepEqual([l.status, l.responseCode, l.responseDescription], ['FAILED', 400, published[1]]);

    const stored = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual([stored?.responseCode, stored?.responseDescription], ['1022', 'Transaction declined by the bank.']);
    const page = await owner.send(`/dashboard/transactions/${orderId}`);
    assert.match(page.text, /Bank answered: failed — 1022 Transaction declined by the bank\./);
  });

  it('a bank that never answers is 183 "Unfortunately, the transaction has failed." everywhere; the store keeps 1023', async () => {
    const orderId = await finished('noanswer@sandbox');
    const published = ['183', 'Unfortunately, the transaction has failed.'];
    const s = await status(orderId);
    assert.deepEqual([s.txnStatus, s.responseCode, s.responseDescription], ['1', ...published]);
    const c = await checkTxn(orderId);
    assert.deepEqual([c.responseCode, c.responseDescription], published);
    const w = await webhookEntry(orderId);
    assert.deepEqual([w.responseCode, w.responseDescription], published);
    const l = await ledgerRow(orderId);
    assert.deepEqual([l.responseCode, l.responseDescription], [183, published[1]]);
    const stored = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual([stored?.responseCode, stored?.markedFailedByService], ['1023', true]);
    const page = await owner.send(`/dashboard/transactions/${orderId}`);
    assert.match(page.text, /1023 No response from the bank/);
  });

  it('a Pending payment: 208 on the status API, null code and text in the ledger (Zaakpay’s sample)', async () => {
    const orderId = newOrderId('oc');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' });
    const s = await status(orderId);
    assert.deepEqual([s.txnStatus, s.responseCode], ['2', '208']);
    const l = await ledgerRow(orderId);
    assert.deepEqual([l.status, l.responseCode, l.responseDescription], ['PENDING', null, null]);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
  });
});
