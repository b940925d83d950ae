import { strict as assert } from 'node:assert';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { ActivityDeps } from '../../activities';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { rupeesText } from '../../src/domain/money';
import { settlementDateOfCapture } from '../../src/domain/settlement-calendar';
import { settlementProcessedDeliveryId } from '../../src/domain/settlement-webhook';
import { standardWebhookSignature } from '../../src/domain/standard-webhooks';
import { settlementCalendar } from '../../src/config-settlements';
import { SettlementAccountRepository } from '../../src/store/settlement-account-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { WebhookEndpointRepository } from '../../src/store/webhook-endpoint-repository';
import { WebhookRepository } from '../../src/store/webhook-repository';
import {
  SETTLEMENT_WORKFLOW_TYPE,
  settlementWorkflowId,
  type SettlementWorkflow,
  type SettlementWorkflowResult,
} from '../../src/temporal/settlement-contract';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { deliveryOutcome } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver } from '../support/receiver';
import { seedPaidSettlement } from '../support/settlements';
import { withinHealthBound } from '../support/endpoint-health';

const ACCOUNT = { ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Settled Stores' };

/**
 * The `settlement.processed` webhook end to end: the real settlement workflow on the real Temporal
 * server and worker, the sandbox bank paying, the payments' delivery machinery calling a real
 * receiver on loopback. Each test pays its own merchant's orders today and settles the date they
 * settle on.
 */
describe('settlement.processed webhook (real receiver on loopback)', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let settlements: SettlementRepository;
  /** Settlements whose payout record "crashes" once, after it is written and before the step completes. */
  const crashAfterRecord = new Set<string>();

  before(async () => {
    gw = await startTestGateway(
      { WEBHOOK_RETRY_SCHEDULE: '0,300ms,300ms,300ms', WEBHOOK_ATTEMPT_TIMEOUT_SECONDS: '1' },
      {
        activityDeps: (deps: ActivityDeps) => {
          const store = Object.create(deps.settlementStore) as ActivityDeps['settlementStore'];
          store.recordPaid = async (id, utr, at) => {
            await deps.settlementStore.recordPaid(id, utr, at);
            if (crashAfterRecord.delete(id)) throw new Error('worker died after recording the payout');
          };
          return { ...deps, settlementStore: store };
        },
      },
    );
    settlements = new SettlementRepository(gw.rt.store.db);
  });
  after(async () => gw?.stop());

  /** Two paid orders today (the payment webhooks go nowhere: no URL yet), then the merchant's settings. */
  async function paidMerchant() {
    const m = await gw.newMerchant('Settled Stores');
    for (const amount of [10_000, 25_050]) {
      const orderId = newOrderId('stl');
      await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, amount, payerVpa: 'success@sandbox' });
      assert.equal((await paymentFinished(gw, m.merchantIdentifier, orderId)).status, 'Success');
    }
    return m;
  }

  /** Runs the merchant's settlement of the date today's captures settle on; `again` starts a new run of the same id. */
  async function settle(merchantIdentifier: string, again = false): Promise<SettlementWorkflowResult & { date: string }> {
    const date = settlementDateOfCapture(settlementCalendar(gw.rt.config.settlements), gw.rt.now());
    const result = await gw.rt.temporal.workflow.execute<SettlementWorkflow>(SETTLEMENT_WORKFLOW_TYPE, {
      workflowId: settlementWorkflowId(merchantIdentifier, date),
      taskQueue: gw.rt.config.temporal.taskQueue,
      args: [{ merchantIdentifier, settlementDate: date }],
      workflowIdReusePolicy: again ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
    return { ...result, date };
  }

  it('an opted-in merchant gets exactly one signed delivery with the UTR once its settlement pays; a repeated run sends nothing again', async () => {
    const receiver = await startReceiver();
    try {
      const m = await paidMerchant();
      await optIn(m, receiver.url, true);
      const result = await settle(m.merchantIdentifier);
      assert.equal(result.state, 'paid');
      const s = (await settlements.find(result.settlementId))!;
      assert.match(s.utr!, /^SBX\d+$/);
      const deliveryId = settlementProcessedDeliveryId({ merchantIdentifier: m.merchantIdentifier, settlementDate: result.date });
      assert.deepEqual(await deliveryOutcome(gw, deliveryId), { state: 'delivered', attempts: 1, workflow: false });
      assert.equal(receiver.calls.length, 1);
      const call = receiver.calls[0]!;
      assert.equal(call.url, '/hooks/payments?event=settlement.processed');
      assert.equal(call.headers['content-type'], 'application/json');
      assert.equal(call.headers['x-webhook-id'], deliveryId);
      assert.equal(call.headers['x-webhook-attempt'], '1');
      // The contract's checksum over the exact txnData text, and the Standard Webhooks signature.
      const body = JSON.parse(call.body) as { txnData: string; checksum: string };
      assert.equal(body.checksum, hmacSha256Hex(m.secretKey, body.txnData));
      const [secret] = (await gw.rt.merchants.webhookSigningSecrets(m.merchantIdentifier, gw.rt.now()))!;
      assert.equal(call.headers['webhook-id'], deliveryId);
      assert.ok(
        String(call.headers['webhook-signature'])
          .split(' ')
          .includes(standardWebhookSignature(secret!.secret, deliveryId, Number(call.headers['webhook-timestamp']), call.body)),
      );
      const [y, mo, d] = result.date.split('-');
      assert.deepEqual(JSON.parse(body.txnData), {
        event: 'settlement.processed',
        settlementId: settlementWorkflowId(m.merchantIdentifier, result.date),
        merchantIdentifier: m.merchantIdentifier,
        settlementDate: `${d}-${mo}-${y}`,
        utr: s.utr,
        paidAt: JSON.parse(body.txnData).paidAt,
        transactionCount: '2',
        grossAmount: '350.50',
        refundAmount: '0.00',
        chargebackAmount: '0.00',
        feeAmount: rupeesText(s.feePaise),
        taxAmount: rupeesText(s.taxPaise),
        carriedInAmount: '0.00',
        netAmount: rupeesText(s.netPaise),
      });
      assert.match(JSON.parse(body.txnData).paidAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.equal(s.netPaise, 35_050 - s.feePaise - s.taxPaise);
      // In the delivery log with its attempt, like any payment webhook.
      const stored = (await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId))!;
      assert.equal(stored.merchantIdentifier, m.merchantIdentifier);
      assert.deepEqual(
        stored.attempts.map((a) => [a.attempt, a.httpStatus]),
        [[1, 200]],
      );

      const listed = await request(`${gw.baseUrl}/ops/v1/webhooks?merchantIdentifier=${m.merchantIdentifier}`, {
        headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
      });
      assert.deepEqual(
        listed.json.data.map((d: { deliveryId: string; state: string }) => [d.deliveryId, d.state]),
        [[deliveryId, 'delivered']],
        'operators list it with the payment webhooks',
      );
      // The endpoint's health counts it as any call.
      const endpoints = new WebhookEndpointRepository(gw.rt.store.db);
      const health = await withinHealthBound(
        () => endpoints.health(m.merchantIdentifier),
        (h) => h.successes >= 1,
      );
      assert.deepEqual([health.attempts, health.successes, health.state], [1, 1, 'enabled']);

      const again = await settle(m.merchantIdentifier, true);
      assert.equal(again.state, 'paid');
      assert.equal(receiver.calls.length, 1, 'a repeated run of the settlement sends nothing again');
    } finally {
      await receiver.close();
    }
  });

  it('a merchant not opted in gets no call and no delivery, though its settlement pays', async () => {
    const receiver = await startReceiver();
    try {
      const m = await paidMerchant();
      await optIn(m, receiver.url, false);
      const result = await settle(m.merchantIdentifier);
      assert.equal(result.state, 'paid');
      const deliveryId = settlementProcessedDeliveryId({ merchantIdentifier: m.merchantIdentifier, settlementDate: result.date });
      assert.deepEqual(await deliveryOutcome(gw, deliveryId), { state: 'not sent', attempts: 0, workflow: false });
      assert.equal(receiver.calls.length, 0);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver failing the first attempt gets it retried with identical bytes and the same X-Webhook-Id', async () => {
    const receiver = await startReceiver((n) => (n === 1 ? { status: 500, body: 'down' } : { status: 200, body: 'SUCCESS' }));
    try {
      const m = await paidMerchant();
      await optIn(m, receiver.url, true);
      const result = await settle(m.merchantIdentifier);
      const deliveryId = settlementProcessedDeliveryId({ merchantIdentifier: m.merchantIdentifier, settlementDate: result.date });
      // Attempt 2 is a quick retry (300 ms, within WEBHOOK_QUICK_RETRIES_WITHIN) of the settlement
      // workflow's own activity, retried by the server after that wait: no delivery workflow.
      assert.deepEqual(await deliveryOutcome(gw, deliveryId), { state: 'delivered', attempts: 2, workflow: false });
      assert.equal(receiver.calls.length, 2);
      assert.equal(new Set(receiver.calls.map((c) => c.body)).size, 1, 'the same bytes every time');
      assert.deepEqual(
        receiver.calls.map((c) => [c.headers['x-webhook-id'], c.headers['x-webhook-attempt']]),
        [
          [deliveryId, '1'],
          [deliveryId, '2'],
        ],
      );
      assert.equal(
        JSON.parse(JSON.parse(receiver.calls[1]!.body).txnData).utr,
        (await settlements.find(result.settlementId))!.utr,
      );
      const endpoints = new WebhookEndpointRepository(gw.rt.store.db);
      const health = await withinHealthBound(
        () => endpoints.health(m.merchantIdentifier),
        (h) => h.attempts >= 2,
      );
      assert.deepEqual([health.attempts, health.successes], [2, 1], 'the failed attempt counted against the endpoint');
      assert.ok(health.lastFailureAt);
    } finally {
      await receiver.close();
    }
  });

  it('a worker dying after the payout is recorded and before the hand-over still sends exactly one call', async () => {
    const receiver = await startReceiver();
    try {
      const m = await paidMerchant();
      await optIn(m, receiver.url, true);
      const date = settlementDateOfCapture(settlementCalendar(gw.rt.config.settlements), gw.rt.now());
      crashAfterRecord.add(settlementWorkflowId(m.merchantIdentifier, date));
      const result = await settle(m.merchantIdentifier);
      assert.equal(result.state, 'paid');
      assert.equal(crashAfterRecord.size, 0, 'the record step did crash once');
      const deliveryId = settlementProcessedDeliveryId({ merchantIdentifier: m.merchantIdentifier, settlementDate: date });
      assert.deepEqual(await deliveryOutcome(gw, deliveryId), { state: 'delivered', attempts: 1, workflow: false });
      assert.equal(receiver.calls.length, 1);
    } finally {
      await receiver.close();
    }
  });

  it('a settlement found paid without its call (a run that ended before the hand-over) gets it on its next run, once', async () => {
    const receiver = await startReceiver();
    try {
      const m = await gw.newMerchant('Settled Stores');
      await optIn(m, receiver.url, true);
      const seeded = await seedPaidSettlement(gw, m.merchantIdentifier, [], { date: '2026-11-24', utr: 'UTR2611240042' });
      const run = async () =>
        gw.rt.temporal.workflow.execute<SettlementWorkflow>(SETTLEMENT_WORKFLOW_TYPE, {
          workflowId: seeded.settlementId,
          taskQueue: gw.rt.config.temporal.taskQueue,
          args: [{ merchantIdentifier: m.merchantIdentifier, settlementDate: seeded.settlementDate }],
          workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        });
      assert.equal((await run()).state, 'paid');
      assert.equal((await run()).state, 'paid');
      assert.equal(receiver.calls.length, 1);
      const event = JSON.parse(JSON.parse(receiver.calls[0]!.body).txnData);
      assert.equal(event.utr, 'UTR2611240042');
      assert.equal(event.settlementDate, '24-11-2026');
    } finally {
      await receiver.close();
    }
  });

  /** Sets the merchant's webhook URL (JSON body) and its opt-in through the ops API; a bank account for its payout. */
  async function optIn(m: MerchantCredentials, url: string, on: boolean) {
    await new SettlementAccountRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).set(m.merchantIdentifier, ACCOUNT, {
      at: gw.rt.now(),
      by: 'test',
      coolingUntil: null,
    });
    const patched = await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
      body: { webhookUrl: url, webhookFormat: 'json', ...(on ? { settlementWebhook: true } : {}) },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.data.settlementWebhook, on);
  }
});
