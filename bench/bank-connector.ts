/**
 * The network boundary's cost: sandbox payments created over HTTP and carried to their final
 * outcome (the workflow's result), through the http connector against the bank simulator on
 * loopback, beside the same through the in-process sandbox bank, at the same concurrency, in the
 * same run. Measurements alternate (sandbox then http, http then sandbox, ...) so a noisy neighbour
 * or a warming cache hits both alike.
 */
import { randomBytes } from 'node:crypto';
import type { TestGateway } from '../test/support/gateway';
import { paymentFinished } from '../test/support/payments';
import { loopLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';

export async function benchBankConnector(
  sandbox: TestGateway,
  http: TestGateway,
  o: { connections: number; seconds: number; rounds?: number },
): Promise<{ rows: BenchRow[]; details: Record<string, LoadResult> }> {
  if (!http.bank) throw new Error('the http gateway must pay through the bank simulator');
  const run = randomBytes(3).toString('hex');
  const merchants = new Map<TestGateway, string>();
  for (const gw of [sandbox, http]) merchants.set(gw, (await gw.newMerchant('Bench bank')).merchantIdentifier);

  const payAndFinish = (gw: TestGateway, label: string) => async (i: number) => {
    const merchantIdentifier = merchants.get(gw)!;
    const orderId = `bank-${run}-${label}-${i}`;
    const res = await fetch(`${gw.baseUrl}/sandbox/v1/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        merchantIdentifier,
        orderId,
        amount: 10_000,
        productDescription: 'Masala chai',
        payerVpa: 'success@sandbox',
      }),
    });
    if (res.status !== 202) throw new Error(`answered ${res.status}`);
    await res.arrayBuffer();
    const result = await paymentFinished(gw, merchantIdentifier, orderId);
    if (result.status !== 'Success') throw new Error(`ended ${result.status}`);
  };

  const rates = { sandbox: [] as number[], http: [] as number[] };
  const details: Record<string, LoadResult> = {};
  // A short warm-up of each (workflow bundle caches, connections), not counted.
  await loopLoad(payAndFinish(sandbox, 'warm'), { concurrency: o.connections, seconds: 1 });
  await loopLoad(payAndFinish(http, 'warm'), { concurrency: o.connections, seconds: 1 });
  for (let r = 0; r < (o.rounds ?? 4); r++) {
    // Alternating which goes first, so neither always runs on the warmer (or busier) machine.
    const order = [
      ['sandbox', sandbox],
      ['http', http],
    ] as const;
    for (const [name, gw] of r % 2 === 0 ? order : [...order].reverse()) {
      const result = await loopLoad(payAndFinish(gw, `${name}${r}`), { concurrency: o.connections, seconds: o.seconds });
      details[`${name === 'http' ? 'http connector + simulator' : 'in-process sandbox'}, round ${r + 1}`] = result;
      rates[name].push(result.perSecond);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const books = http.bank.books.snapshot(merchants.get(http));
  const failures = Object.values(details).reduce((n, d) => n + d.failures, 0);
  // The bank's books agree with the gateway: every payment paid once, none asked twice.
  const paid = books.payments.filter((p) => p.answer.status === 'APPROVED').length;
  const agree = books.totals.paidPaise === paid * 10_000 && books.totals.repeatedRequests === 0;
  return {
    rows: [
      ratioRow(
        'payment creation + completion/s, http connector vs in-process sandbox',
        {
          label: `http ${round(mean(rates.http))}/s (${paid} paid at the bank, ${failures} failed${agree ? '' : ', BOOKS DISAGREE'})`,
          value: failures || !agree ? 0 : mean(rates.http),
        },
        { label: `sandbox ${round(mean(rates.sandbox))}/s`, value: mean(rates.sandbox) },
        { atLeast: 0.8 },
      ),
    ],
    details,
  };
}
