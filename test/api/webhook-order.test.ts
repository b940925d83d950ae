import { strict as assert } from 'node:assert';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, sandboxPay, storedTransaction } from '../support/payments';
import { startReceiver, type ReceivedCall } from '../support/receiver';
import { csvFile, reconcile } from '../support/reconciliations';

/** What each call told the merchant of the order: `failure`/`success` (real-time) or `late success`. */
function heard(calls: ReceivedCall[], orderId: string): string[] {
  return calls.flatMap((c) => {
    const data = JSON.parse(new URLSearchParams(c.body).get('txnData')!);
    const txns = (data.txns as { orderId?: string; orderid?: string; responseCode?: string }[]).filter(
      (t) => (t.orderId ?? t.orderid) === orderId,
    );
    if (c.url.endsWith('?realtime=false')) return txns.map(() => 'late success');
    return txns.map((t) => (t.responseCode === '100' ? 'success' : 'failure'));
  });
}

async function until(what: () => boolean | Promise<boolean>, label: string): Promise<void> {
  for (let i = 0; i < 300 && !(await what()); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(await what(), label);
}

/**
 * A failed payment's real-time webhook whose first attempt the merchant's receiver refuses, then
 * the order's outcome changes (a reconciliation's delayed success, reported at once): the stale
 * failure's retry must never reach the merchant after the success, and is recorded as superseded.
 */
function scenario(label: string, env: Record<string, string>, handedOver: boolean) {
  describe(`Webhook order: a stale outcome is never the last word (${label})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({ WEBHOOK_BATCH_WINDOW: '300ms', ...env });
    });
    after(async () => gw?.stop());

    it('the failure retried after a delayed success is superseded, not sent', async () => {
      const receiver = await startReceiver((n) => (n === 1 ? { status: 500, body: 'busy' } : { status: 200, body: 'SUCCESS' }));
      try {
        const m = await gw.newMerchant('Webhook order');
        await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
        const orderId = newOrderId('order');
        const paid = await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' });
        // Not the workflow's end: it holds its first webhook attempt's quick retries.
        const status = async () => (await storedTransaction(gw, m.merchantIdentifier, orderId))?.status;
        await until(async () => (await status()) === 'Failure', 'the payment failed');
        await receiver.received(1);
        assert.deepEqual(heard(receiver.calls, orderId), ['failure'], 'the failure, refused by the receiver');

        await reconcile(gw, csvFile([`${paid.json.data.txnId},ORDER0001,SUCCESS,10000`]));
        assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))!.status, 'Success');
        await until(() => heard(receiver.calls, orderId).includes('late success'), 'the delayed success is heard');

        const deliveries = gw.rt.store.db.collection('webhook_deliveries');
        const rt = { _id: `rt:${m.merchantIdentifier}:${orderId}` as never };
        await until(async () => (await deliveries.findOne(rt))?.state !== 'pending', 'the real-time delivery settled');
        await new Promise((r) => setTimeout(r, 500)); // an attempt logged late would have arrived by now
        const said = heard(receiver.calls, orderId);
        assert.equal(said.at(-1), 'late success', `the last word is the current outcome: ${said.join(', ')}`);
        assert.deepEqual(said, ['failure', 'late success']);
        const stored = await deliveries.findOne(rt);
        assert.equal(stored!.state, 'superseded');
        assert.equal(stored!.attempts.length, 1, 'only the refused attempt was sent');
        assert.match(String(stored!.supersededBy), /^outcome 2 of the order/);
        if (handedOver) {
          const result = await gw.rt.temporal.workflow.getHandle(`webhook:${rt._id}`).result();
          assert.deepEqual(result, { state: 'superseded', attempts: 1 }, 'the delivery workflow ends at once');
        }
      } finally {
        await receiver.close();
      }
    });
  });
}

// Attempt 2 after 4 s: a quick retry of the first-attempt activity, or a retry by the delivery workflow.
scenario('quick retry', { WEBHOOK_RETRY_SCHEDULE: '0,4s' }, false);
scenario('delivery workflow', { WEBHOOK_RETRY_SCHEDULE: '0,4s,4s', WEBHOOK_QUICK_RETRIES_WITHIN: '0' }, true);

describe('Webhook order: a chargeback raise retried after its revert is superseded', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,4s,4s' });
  });
  after(async () => gw?.stop());

  /** The txnStatus of every chargeback call of the order the receiver got, in order of arrival. */
  const chargebackCalls = (calls: ReceivedCall[], orderId: string) =>
    calls
      .filter((c) => c.url.endsWith('?realtime=false'))
      .flatMap((c) => JSON.parse(new URLSearchParams(c.body).get('txnData')!).txns)
      .filter((t: { orderid: string; chargebackAmount?: number }) => t.orderid === orderId && t.chargebackAmount !== undefined)
      .map((t: { txnStatus: string }) => t.txnStatus);

  it('the merchant hears the revert last; the refused raise is never sent after it', async () => {
    // Call 1: the payment's success; call 2: the raise, refused; then every call acknowledged.
    const receiver = await startReceiver((n) => (n === 2 ? { status: 500, body: 'busy' } : { status: 200, body: 'SUCCESS' }));
    try {
      const m = await gw.newMerchant('Chargeback order');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const orderId = newOrderId('cborder');
      await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      await receiver.received(1);
      const chargeback = (action: string) =>
        request(`${gw.baseUrl}/ops/v1/chargebacks`, {
          body: JSON.stringify({ merchantIdentifier: m.merchantIdentifier, orderId, amount: 10_000, action }),
          headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
        });
      assert.equal((await chargeback('raise')).json.data.txnStatus, '6');
      await receiver.received(2);
      assert.equal((await chargeback('revert')).json.data.txnStatus, '5');
      await until(() => chargebackCalls(receiver.calls, orderId).includes('5'), 'the revert is heard');

      const deliveries = gw.rt.store.db.collection('webhook_deliveries');
      const raise = { merchantIdentifier: m.merchantIdentifier, realtime: false, 'attempts.0.httpStatus': 500 };
      await until(async () => (await deliveries.findOne(raise))?.state !== 'pending', 'the raise settled');
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(chargebackCalls(receiver.calls, orderId), ['6', '5'], 'the revert is the last word');
      const stored = await deliveries.findOne(raise);
      assert.equal(stored!.state, 'superseded');
      assert.match(String(stored!.supersededBy), /^chargeback change \d+ of the order/);

      // An operator's replay of the stale raise is superseded from its first attempt: the raise was told once already.
      const replay = await request(`${gw.baseUrl}/ops/v1/webhooks/${encodeURIComponent(String(stored!._id))}/replay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
      });
      assert.equal(replay.status, 202);
      const { replayId } = replay.json.data as { replayId: string };
      assert.deepEqual(await gw.rt.temporal.workflow.getHandle(`webhook:${replayId}`).result(), {
        state: 'superseded',
        attempts: 0,
      });
      assert.deepEqual(chargebackCalls(receiver.calls, orderId), ['6', '5'], 'the replayed raise was not sent');
    } finally {
      await receiver.close();
    }
  });
});
