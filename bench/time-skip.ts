/**
 * `npm run bench:time-skip`: the cost of a skip in time-skipping mode, which looks at every open
 * workflow (the test server has no visibility queries) before and after it moves the clock.
 * TIME_SKIP_BENCH_COUNT (default 200) payments whose bank never answers stay open, then:
 * - a skip of a minute, when nothing falls due, beside the test server's own bare skip of a minute;
 * - a skip of 15 minutes, when every payment's bank timer fires: all must be Failure 1023 and every
 *   webhook delivered exactly once by the time the skip answers.
 * Targets (mine; the issue sets none): the quiet skip within 2 s, the busy one within 60 s.
 */
import { msToTs, tsToMs } from '@temporalio/common/lib/time';
import { testServiceOf } from '../src/temporal/client';
import { request } from '../test/support/http';
import { newOrderId, sandboxPay } from '../test/support/payments';
import { startReceiver } from '../test/support/receiver';
import { stopTestServers } from '../test/support/servers';
import { skipTime, startTimeSkippingGateway } from '../test/support/time-skipping';
import { round } from './support/load';
import { ratioRow, report, runBench } from './support/report';

const COUNT = Number(process.env.TIME_SKIP_BENCH_COUNT ?? 200);

async function main(): Promise<boolean> {
  const receiver = await startReceiver();
  const gw = await startTimeSkippingGateway({ RATE_LIMIT_PER_SECOND: '0', TIME_SKIP_TIMEOUT_SECONDS: '600' });
  try {
    const merchant = await gw.newMerchant('Time skip bench');
    await request(`${gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}`, {
      method: 'PATCH',
      body: { webhookUrl: receiver.url },
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    const orderIds = Array.from({ length: COUNT }, () => newOrderId('silent'));
    for (let i = 0; i < COUNT; i += 20) {
      await Promise.all(
        orderIds
          .slice(i, i + 20)
          .map((orderId) =>
            sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' }),
          ),
      );
    }

    const timed = async (skip: () => Promise<unknown>) => {
      const started = performance.now();
      await skip();
      return performance.now() - started;
    };
    const testService = testServiceOf(gw.rt.temporal)!;
    // Both settle the payments' first tasks before they are timed.
    await skipTime(gw, { seconds: 1 });
    const quietMs = await timed(async () => {
      const res = await skipTime(gw, { seconds: 60 });
      if (res.status !== 200) throw new Error(res.text);
    });
    const bareMs = await timed(() => testService.unlockTimeSkippingWithSleep({ duration: msToTs(60_000) }));

    const before = tsToMs((await testService.getCurrentTime({})).time);
    const busyMs = await timed(async () => {
      const res = await skipTime(gw, { seconds: 15 * 60 });
      if (res.status !== 200) throw new Error(res.text);
    });
    const after = tsToMs((await testService.getCurrentTime({})).time);

    const failed = await gw.rt.store.db
      .collection('transactions')
      .countDocuments({ merchantIdentifier: merchant.merchantIdentifier, status: 'Failure', responseCode: '1023' });
    const callsPerOrder = orderIds.map(
      (id) => receiver.calls.filter((c) => decodeURIComponent(c.body).includes(`"${id}"`)).length,
    );
    const exactlyOnce = callsPerOrder.filter((n) => n === 1).length;
    console.log(
      JSON.stringify({
        openWorkflows: COUNT,
        quietSkipMs: round(quietMs, 0),
        bareTestServerSkipMs: round(bareMs, 0),
        busySkipMs: round(busyMs, 0),
        simulatedSeconds: round((after - before) / 1000, 1),
        failedWith1023: failed,
        webhooksExactlyOnce: exactlyOnce,
      }),
    );
    if (failed !== COUNT || exactlyOnce !== COUNT) {
      console.log(`MISSED: ${failed} of ${COUNT} payments failed with 1023, ${exactlyOnce} webhooks arrived exactly once`);
      return false;
    }
    return report([
      ratioRow(
        `a quiet one-minute skip with ${COUNT} open workflows`,
        {
          label: `${round(quietMs, 0)} ms (the test server's bare skip: ${round(bareMs, 0)} ms)`,
          value: quietMs,
          work: `POST /sandbox/v1/time/skip of 60 s with ${COUNT} payments open (bank never answering, webhook URL set), nothing falling due; log level ${gw.rt.config.observability.logLevel}`,
        },
        { label: 'two seconds', value: 2000, work: 'a fixed budget of two seconds: nothing is run' },
        { atMost: 1 },
      ),
      ratioRow(
        `a 15-minute skip failing ${COUNT} payments and delivering their webhooks`,
        {
          label: `${round(busyMs, 0)} ms`,
          value: busyMs,
          work: `POST /sandbox/v1/time/skip of 15 min: ${COUNT} bank timers fire, ${COUNT} payments fail (1023), ${COUNT} webhooks posted to a loopback receiver before it answers; log level ${gw.rt.config.observability.logLevel}`,
        },
        { label: 'one minute', value: 60_000, work: 'a fixed budget of one minute: nothing is run' },
        { atMost: 1 },
      ),
    ]);
  } finally {
    await gw.stop();
    await receiver.close();
    await stopTestServers();
  }
}

runBench(main);
