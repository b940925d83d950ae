import { strict as assert } from 'node:assert';
import { tsToMs } from '@temporalio/common/lib/time';
import { formatIstDateTime, parseIstDateTime } from '../../src/domain/ist-time';
import { activityDeps } from '../../src/main/runtime';
import { testServiceOf } from '../../src/temporal/client';
import { pendingSweepInput } from '../../src/temporal/schedules';
import { mandateDebitStageQuery } from '../../src/temporal/mandate-messages';
import { createGatewayWorker } from '../../src/main/gateway-worker';
import { mandateDebitWorkflowId } from '../../src/temporal/workflow-ids';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { sharedGateway, startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { ledger } from '../support/ledger';
import { createData, istAt, notifyData, transactU } from '../support/mandates';
import { createLinks, linkEntry, linkExpireBy, linkPath, newBatchId, openLink } from '../support/payment-links';
import { newOrderId, sandboxPay } from '../support/payments';
import { startReceiver, type ReceiverAnswer } from '../support/receiver';
import { workflowBundle } from '../support/servers';
import { awaitResultPage, openPage, postTransactU, returnFormOf, returnVerifies, v8Data } from '../support/checkout';
import { gatewayTime, skipTime, startTimeSkippingGateway } from '../support/time-skipping';

const DAY_S = 24 * 3600;

/**
 * The gateway in time-skipping mode, over real HTTP: a tester's three stories (a mandate debit two
 * days ahead, a bank that never answers, a webhook receiver that fails for a day), the skip's
 * refusals, and the clock the API reports against the test server's.
 */
describe('Time travel: the gateway on the time-skipping test server', function () {
  this.timeout(180_000);

  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let receiverAnswer: (call: { body: string }) => ReceiverAnswer = () => ({ status: 200, body: 'SUCCESS' });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver((n) => receiverAnswer(receiver.calls[n - 1]!));
    // Skips here finish in about a second; the 503 test waits this long for a workflow that cannot.
    gw = await startTimeSkippingGateway({ TIME_SKIP_TIMEOUT_SECONDS: '8' });
    merchant = await gw.newMerchant('Time Traveller');
    const patched = await request(`${gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}`, {
      method: 'PATCH',
      body: { webhookUrl: receiver.url },
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    assert.equal(patched.status, 200, patched.text);
  });
  after(async () => {
    await gw?.stop();
    await receiver?.close();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') return dumpOpenWorkflows(gw);
  });

  const now = async () => {
    const res = await gatewayTime(gw);
    assert.equal(res.status, 200, res.text);
    return new Date(res.json.data.epochMillis);
  };
  const serverTime = async () => new Date(tsToMs((await testServiceOf(gw.rt.temporal)!.getCurrentTime({})).time));
  const orderOf = async (orderId: string) => {
    const res = await checkStatus(gw.baseUrl, merchant.secretKey, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      version: 13,
    });
    return res.json?.data?.orders?.[0];
  };
  const callsFor = (orderId: string) => receiver.calls.filter((c) => decodeURIComponent(c.body).includes(`"${orderId}"`));
  const webhookDeliveries = async () => {
    const res = await request(`${gw.baseUrl}/ops/v1/webhooks?merchantIdentifier=${merchant.merchantIdentifier}`, {
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    assert.equal(res.status, 200, res.text);
    return res.json.data as {
      deliveryId: string;
      url: string;
      state: string;
      attempts: { at: string; httpStatus: number | null }[];
    }[];
  };

  it('answers the time in IST and epoch milliseconds, and never behind the workflows clock', async () => {
    for (let i = 0; i < 5; i++) {
      const before = await serverTime();
      const res = await gatewayTime(gw);
      assert.equal(res.status, 200, res.text);
      assert.ok(
        res.json.data.epochMillis >= before.getTime(),
        `API ${res.json.data.epochMillis} behind server ${before.getTime()}`,
      );
      assert.equal(res.json.data.istDateTime, formatIstDateTime(new Date(res.json.data.epochMillis)));
      if (i === 2) await skipTime(gw, { seconds: 3600 });
    }
  });

  it('moves time only when told: a skip by seconds or until an IST time', async () => {
    const t0 = await now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const t1 = await now();
    assert.ok(t1.getTime() - t0.getTime() < 30_000, 'without a skip the clock runs at wall-clock pace');

    const bySeconds = await skipTime(gw, { seconds: 7200 });
    assert.equal(bySeconds.status, 200, bySeconds.text);
    const { from, to } = bySeconds.json.data;
    assert.ok(to.epochMillis - from.epochMillis >= 7200_000 && to.epochMillis - from.epochMillis < 7230_000, bySeconds.text);
    assert.ok((await now()).getTime() >= to.epochMillis);

    const until = formatIstDateTime(istAt(await now(), 1, '08:00:00'));
    const byTime = await skipTime(gw, { until });
    assert.equal(byTime.status, 200, byTime.text);
    assert.ok(byTime.json.data.to.epochMillis >= parseIstDateTime(until)!.getTime());
    assert.ok(byTime.json.data.to.epochMillis < parseIstDateTime(until)!.getTime() + 30_000);
  });

  it('a mandate notified for 2 days ahead is debited once when 2 days are skipped, with its webhook', async () => {
    // Out of the peak windows first: the notify request itself must not fall in one.
    await skipTime(gw, { until: formatIstDateTime(istAt(await now(), 1, '07:00:00')) });
    const today = await now();
    const parent = newOrderId('mandate');
    const created = await transactU(gw.baseUrl, merchant, createData(merchant, { orderId: parent, today }));
    assert.equal(created.json.responseCode, '1101', created.text);
    await waitFor(async () => (await orderOf(parent))?.txnStatus === '0', 'the sandbox payer approves the mandate');

    const debit = newOrderId('debit');
    const executionDate = formatIstDateTime(istAt(today, 2, '07:00:00'));
    const notified = await transactU(gw.baseUrl, merchant, notifyData(merchant, { orderId: debit, parent, executionDate }));
    assert.equal(notified.json.responseCode, '1109', notified.text);
    assert.equal((await orderOf(debit)).txnStatus, '2', 'pending until its executionDate');

    const skipped = await skipTime(gw, { seconds: 2 * DAY_S });
    assert.equal(skipped.status, 200, skipped.text);
    const order = await orderOf(debit);
    assert.equal(order.txnStatus, '0', JSON.stringify(order));
    assert.equal(order.responseCode, '1111');
    // Recorded by the activity at executionDate on the test server's clock, not the wall clock's.
    assert.ok(secondsBetween(order.txnDate, executionDate) <= 2, `${order.txnDate} vs ${executionDate}`);
    const hooks = callsFor(debit);
    assert.equal(hooks.length, 1, 'one webhook, delivered before the skip answered');
    assert.match(decodeURIComponent(hooks[0]!.body), /"responseCode":"1111"/);

    await skipTime(gw, { seconds: DAY_S });
    assert.equal(callsFor(debit).length, 1, 'executed once: nothing more a day later');
    // The same notify again, once its debit has run: no longer scheduled, its orderId is used.
    const resent = await transactU(gw.baseUrl, merchant, notifyData(merchant, { orderId: debit, parent, executionDate }));
    assert.equal(resent.json.responseCode, '1102', resent.text);
    assert.equal((await orderOf(debit)).responseCode, '1111');

    // A debit still scheduled when the payer revokes the mandate is cancelled (1124), and the clock
    // still moves afterwards: the mandate waits for its debits, so none closes after its parent.
    const later = newOrderId('debit');
    const laterDate = formatIstDateTime(istAt(await now(), 2, '07:30:00'));
    const notifiedLater = await transactU(
      gw.baseUrl,
      merchant,
      notifyData(merchant, { orderId: later, parent, executionDate: laterDate }),
    );
    assert.equal(notifiedLater.json.responseCode, '1109', notifiedLater.text);
    const revoked = await request(`${gw.baseUrl}/sandbox/v1/mandates/revoke`, {
      body: { merchantIdentifier: merchant.merchantIdentifier, orderId: parent },
    });
    assert.equal(revoked.json.data?.state, 'REVOKED', revoked.text);
    const afterRevoke = await skipTime(gw, { seconds: 3 * DAY_S });
    assert.equal(afterRevoke.status, 200, afterRevoke.text);
    const cancelled = await orderOf(later);
    assert.equal(cancelled.responseCode, '1124', JSON.stringify(cancelled));
    assert.equal(callsFor(later).length, 1, "the cancelled debit's webhook");
  });

  it('a confirmation (action execute) inside a peak window is refused with 1118 and the debit still waits; after it, it runs', async () => {
    await skipTime(gw, { until: formatIstDateTime(istAt(await now(), 1, '07:00:00')) });
    const today = await now();
    const parent = newOrderId('mandate');
    const created = await transactU(gw.baseUrl, merchant, createData(merchant, { orderId: parent, today }));
    assert.equal(created.json.responseCode, '1101', created.text);
    await waitFor(async () => (await orderOf(parent))?.txnStatus === '0', 'the sandbox payer approves the mandate');

    const debit = newOrderId('debit');
    const executionDate = formatIstDateTime(istAt(today, 2, '08:00:00'));
    const notify = notifyData(merchant, { orderId: debit, parent, executionDate, autoExecute: false });
    assert.equal((await transactU(gw.baseUrl, merchant, notify)).json.responseCode, '1109');
    const execute = structuredClone(notify);
    execute.paymentInstrument.upiMandate = {
      action: 'execute',
      payerVpa: notify.paymentInstrument.upiMandate.payerVpa,
      mandateParentOrderId: parent,
    };
    const stage = () =>
      gw.rt.temporal.workflow.getHandle(mandateDebitWorkflowId(merchant.merchantIdentifier, debit)).query(mandateDebitStageQuery);

    // Past executionDate, inside the 10:00-13:00 window (time from the gateway's clock): 1118.
    await skipTime(gw, { until: formatIstDateTime(istAt(today, 2, '10:30:00')) });
    assert.equal(await stage(), 'awaiting-confirmation');
    const inPeak = await transactU(gw.baseUrl, merchant, execute);
    assert.equal(inPeak.json.responseCode, '1118', inPeak.text);
    assert.equal(inPeak.json.bankPostData, null);
    assert.equal(await stage(), 'awaiting-confirmation', 'not taken: it does not silently wait for the window to end');
    assert.equal((await orderOf(debit)).txnStatus, '2');

    // The window's end is outside it: the same confirmation is taken and the debit runs at once.
    await skipTime(gw, { until: formatIstDateTime(istAt(today, 2, '13:00:00')) });
    const confirmed = await transactU(gw.baseUrl, merchant, execute);
    assert.equal(confirmed.json.responseCode, '1122', confirmed.text);
    await waitFor(async () => (await orderOf(debit))?.txnStatus === '0', 'the confirmed debit runs');
    assert.equal((await orderOf(debit)).responseCode, '1111');
  });

  it('a payment whose bank never answers is marked Failure (183) when 15 minutes are skipped', async () => {
    const orderId = newOrderId('silent');
    const paid = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' });
    assert.equal(paid.status, 202, paid.text);
    const started = await orderOf(orderId);
    assert.equal(started.txnStatus, '2');

    await skipTime(gw, { seconds: 14 * 60 });
    assert.equal((await orderOf(orderId)).txnStatus, '2', 'still waiting after 14 minutes');
    const skipped = await skipTime(gw, { seconds: 60 });
    assert.equal(skipped.status, 200, skipped.text);
    const order = await orderOf(orderId);
    assert.equal(order.txnStatus, '1', JSON.stringify(order));
    assert.equal(order.responseCode, '183');
    assert.ok(
      secondsBetween(order.txnDate, started.orderDetail.createDate) >= 900 &&
        secondsBetween(order.txnDate, started.orderDetail.createDate) <= 905,
    );
    assert.equal(callsFor(orderId).length, 1, 'its webhook arrived before the skip answered');
  });

  it('a webhook its receiver refuses is retried on the schedule through a skipped day, then delivered', async () => {
    const orderId = newOrderId('refused');
    let refusing = true;
    receiverAnswer = (call) =>
      refusing && decodeURIComponent(call.body).includes(`"${orderId}"`)
        ? { status: 500, body: 'down' }
        : { status: 200, body: 'SUCCESS' };
    const paid = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    assert.equal(paid.status, 202, paid.text);
    await waitFor(async () => callsFor(orderId).length >= 1, 'the first attempt');

    const skipped = await skipTime(gw, { seconds: DAY_S });
    assert.equal(skipped.status, 200, skipped.text);
    // 0, 5 s, 5 m, 30 m, 2 h, 5 h, 10 h: seven attempts in the first day, the eighth 10 h later.
    const pending = (await webhookDeliveries()).filter((d) => d.state === 'pending');
    assert.equal(pending.length, 1, 'the refused delivery is the one still pending');
    const delivery = pending[0]!;
    assert.equal(delivery.attempts.length, 7, JSON.stringify(delivery.attempts));
    assert.equal(callsFor(orderId).length, 7);
    const gaps = delivery.attempts
      .slice(1)
      .map((a, i) => Math.round((Date.parse(a.at) - Date.parse(delivery.attempts[i]!.at)) / 1000));
    const expected = [5, 300, 1800, 7200, 18000, 36000];
    gaps.forEach((gap, i) => assert.ok(Math.abs(gap - expected[i]!) <= 3, `gap ${i}: ${gaps.join(',')}`));

    refusing = false;
    await skipTime(gw, { seconds: 4 * 3600 });
    const delivered = (await webhookDeliveries()).find((d) => d.deliveryId === delivery.deliveryId)!;
    assert.equal(delivered.state, 'delivered');
    assert.equal(delivered.attempts.length, 8);
    assert.equal(callsFor(orderId).length, 8);
  });

  it('a payment link that expires next week is open until then and expired (410, 183) once a week is skipped', async () => {
    const entry = linkEntry({ linkExpireBy: linkExpireBy(7 * DAY_S * 1000, (await now()).getTime()) });
    const created = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: [entry] });
    const path = linkPath(created.json.data[0].link);
    await skipTime(gw, { seconds: 6 * DAY_S });
    assert.equal((await openLink(gw, path)).status, 200, 'still open after six days');
    await skipTime(gw, { seconds: DAY_S });
    const page = await openLink(gw, path);
    assert.equal(page.status, 410);
    assert.match(page.html, /This payment link has expired/);
    assert.equal((await orderOf(entry.orderId as string)).responseCode, '183');
  });

  it('a hosted checkout nobody pays is open for CHECKOUT_EXPIRY_SECONDS, then expired (183) and returned signed', async () => {
    const orderId = newOrderId('checkout');
    const posted = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { browser: true });
    assert.equal(posted.status, 303, posted.text);
    await skipTime(gw, { seconds: 29 * 60 });
    assert.match((await openPage(gw, posted.location!)).html, /Or pay here/, 'still open after 29 minutes');
    await skipTime(gw, { seconds: 60 });
    const order = await orderOf(orderId);
    assert.deepEqual([order.txnStatus, order.responseCode], ['1', '183']);
    const back = returnFormOf(await awaitResultPage(gw, posted.location!));
    assert.equal(new Map(back.fields).get('responseCode'), '183');
    assert.ok(returnVerifies(merchant.secretKey, 'V8', back.fields));
    assert.equal(callsFor(orderId).length, 1, 'its webhook arrived before the skip answered');
  });

  it("the ledger's days are the gateway's: an order created after a skip is in the ledger of the skipped-to IST day", async () => {
    await skipTime(gw, { seconds: 3 * DAY_S });
    const orderId = newOrderId('ledger');
    assert.equal(
      (await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' })).status,
      202,
    );
    const day = formatIstDateTime(await now()).slice(0, 10);
    const page = await ledger(gw, merchant.apiKey, { startDateTime: day, endDateTime: day, status: 'ALL' });
    assert.equal(page.status, 200, page.text);
    assert.ok(
      page.json.data.transactions.some((t: { orderId: string }) => t.orderId === orderId),
      `${orderId} in the ledger of ${day}: ${page.text.slice(0, 300)}`,
    );
  });

  it('refuses a skip backwards, by a bad amount or in a bad shape with 400, and the time stays', async () => {
    const current = await now();
    const past = formatIstDateTime(new Date(current.getTime() - 60_000));
    const bad: [string, object | string][] = [
      ['backwards', { until: past }],
      ['to now', { until: formatIstDateTime(current) }],
      ['zero', { seconds: 0 }],
      ['negative', { seconds: -60 }],
      ['fractional', { seconds: 1.5 }],
      ['a string', { seconds: '60' }],
      ['over a year', { seconds: 366 * DAY_S + 1 }],
      ['until over a year', { until: formatIstDateTime(new Date(current.getTime() + 367 * DAY_S * 1000)) }],
      ['both', { seconds: 60, until: formatIstDateTime(new Date(current.getTime() + 3600_000)) }],
      ['neither', {}],
      ['an unknown field', { seconds: 60, days: 1 }],
      ['not a date', { until: '2026-02-30 10:00:00' }],
      ['not IST text', { until: '2026-12-01T10:00:00Z' }],
      ['null', { seconds: null }],
      ['not JSON', '{"seconds":'],
    ];
    for (const [what, body] of bad) {
      const res = await skipTime(gw, body);
      assert.equal(res.status, 400, `${what}: ${res.text}`);
      assert.equal(res.json.success, false, what);
      assert.ok(['2001', '2002'].includes(res.json.message.code), `${what}: ${res.text}`);
    }
    const wrongType = await request(`${gw.baseUrl}/sandbox/v1/time/skip`, {
      body: 'seconds=60',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(wrongType.status, 415);
    const withQuery = await request(`${gw.baseUrl}/sandbox/v1/time?at=now`);
    assert.equal(withQuery.status, 400);
    assert.ok((await now()).getTime() - current.getTime() < 60_000, 'no refused skip moved the time');
  });

  it('documents the two endpoints in this mode only', async () => {
    const paths = Object.keys((await request(`${gw.baseUrl}/openapi.json`)).json.paths);
    assert.ok(paths.includes('/sandbox/v1/time') && paths.includes('/sandbox/v1/time/skip'), paths.join(' '));
    const plain = await sharedGateway();
    assert.ok(!Object.keys((await request(`${plain.baseUrl}/openapi.json`)).json.paths).includes('/sandbox/v1/time'));
  });

  it('refuses to start in this mode against a server that is not the test server', async () => {
    await assert.rejects(
      startTestGateway({ TIME_SKIPPING: 'true', MONGODB_DB: 'gateway_ts_refused' }),
      /TIME_SKIPPING needs the Temporal time-skipping test server/,
    );
  });

  it('answers 503 (2051) naming the busy workflow when one cannot finish, and skips again once it is gone', async () => {
    const stuck = `stuck-${newOrderId()}`;
    const queue = `nobody-polls-${stuck}`;
    // A workflow task on a queue no worker polls holds the test server's clock still.
    const handle = await gw.rt.temporal.workflow.start('pendingPaymentsSweepWorkflow', {
      workflowId: stuck,
      taskQueue: queue,
      args: [pendingSweepInput(3600)],
    });
    const before = await now();
    const refused = await skipTime(gw, { seconds: 3600 });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.json.message.code, '2051');
    assert.match(refused.json.message.text, new RegExp(`${stuck}.*nothing was skipped`));
    assert.ok((await now()).getTime() - before.getTime() < 60_000, 'time did not move');

    // A worker for that queue lets it finish (terminating it instead would leave the test server's
    // clock held by the task it never handed out).
    const { worker, connection } = await createGatewayWorker({
      address: gw.rt.config.temporal.address!,
      namespace: gw.rt.config.temporal.namespace,
      masterKey: gw.rt.config.secrets.masterKey,
      taskQueue: queue,
      activityDeps: activityDeps(gw.rt),
      workflowBundle: await workflowBundle(),
      testServerClock: gw.rt.timeTravel!.clock,
    });
    await worker.runUntil(handle.result());
    await connection.close();
    const skipped = await skipTime(gw, { seconds: 3600 });
    assert.equal(skipped.status, 200, skipped.text);
  });

  it('does not exist without time skipping: 404 in the usual envelope', async () => {
    const plain = await sharedGateway();
    for (const [url, body] of [
      [`${plain.baseUrl}/sandbox/v1/time`, undefined],
      [`${plain.baseUrl}/sandbox/v1/time/skip`, { seconds: 60 }],
    ] as const) {
      const res = await request(url, { body });
      assert.equal(res.status, 404, res.text);
      assert.deepEqual(res.json.message.code, '2040');
    }
  });
});

/** Seconds between two IST `yyyy-MM-dd HH:mm:ss[.SSS]` texts, b to a (to the second). */
function secondsBetween(a: string, b: string): number {
  return (parseIstDateTime(a.slice(0, 19))!.getTime() - parseIstDateTime(b.slice(0, 19))!.getTime()) / 1000;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** On a failure: what each open workflow is waiting for, to tell a stuck clock from a slow one. */
async function dumpOpenWorkflows(gw: TestGateway) {
  const svc = gw.rt.temporal.workflowService;
  const namespace = 'default';
  const { executions } = await svc.listOpenWorkflowExecutions({ namespace, maximumPageSize: 1000 });
  for (const e of executions) {
    const d = await svc.describeWorkflowExecution({ namespace, execution: e.execution });
    const h = await svc.getWorkflowExecutionHistory({ namespace, execution: e.execution });
    const events = h.history?.events ?? [];
    console.error(
      e.execution?.workflowId,
      JSON.stringify(d.pendingActivities),
      events.slice(-3).map((x) => x.eventType),
    );
  }
}
