/**
 * `npm run chaos`: kill -9 the API and the worker in the middle of a burst of sandbox payments,
 * start them again, and check that nothing was lost, paid twice or changed.
 *
 * It starts its own FerretDB and Temporal dev server (or uses MONGODB_URI / TEMPORAL_ADDRESS), runs
 * `src/main/api.ts` and `src/main/worker.ts` as separate processes with a short bank timeout and a
 * fast pending-payments sweep, provisions merchants, fires payments of every sandbox outcome with
 * some concurrency, kills both processes with SIGKILL after --kill-after-ms, restarts them at once,
 * resends a sample of the requests that got no answer (as a merchant would), waits until every
 * stored order is final, and verifies the guarantees in chaos-checks.ts. Exits 1 on any violation.
 *
 * Run: npm run chaos [-- --payments 300 --concurrency 16 --per-second 100 --kill-after-ms 1500]
 *
 * Bank-fault mode, `npm run chaos -- --bank-faults [--drop-share 0.2]`: the same against the bank
 * simulator (its own process, never killed) through the http connector, with the simulator dropping
 * a share of connections after it committed; besides the above, the gateway's books and the
 * simulator's must agree to the paisa (verifyBankBooks).
 * Replicas mode, `npm run chaos -- --replicas [--kill-interval-ms 1500]`: two API and two worker
 * processes behind one address (bench/support/round-robin-proxy.ts), each killed and restarted in
 * turn during the burst (chaos-replicas.ts); the merchants' webhooks go to a receiver here, which
 * must have seen every final order announced once (chaos-webhooks.ts), besides the above.
 * (every option and its default in parseArgs below; --sweep-interval-seconds 300 shows a run the
 * sweep does not rescue in time failing)
 */
import { parseArgs } from 'node:util';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { MongoClient } from 'mongodb';
import { connectTemporalClient } from '../src/temporal/client';
import { PENDING_SWEEP_SCHEDULE_ID } from '../src/temporal/schedules';
import { paymentWorkflowId } from '../src/temporal/workflow-ids';
import {
  converged,
  explainWorkflow,
  latestRuns,
  observe,
  verify,
  verifyBankBooks,
  type BankBookPayment,
  type Observation,
} from './chaos-checks';
import { burst, isAnswered2xx, paymentMix, resend, type Answer, type ChaosPayment } from './chaos-payments';
import { startReplicas, type Replicas } from './chaos-replicas';
import {
  killGateway,
  removeChaosDir,
  startChaosStack,
  startGateway,
  type ChaosStack,
  type GatewayProcesses,
} from './chaos-stack';
import { startWebhookReceiver, verifyWebhooks, webhooksArrived, type WebhookReceiver } from './chaos-webhooks';

const say = (line: string) => console.log(`[chaos] ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<boolean> {
  const { values } = parseArgs({
    options: {
      payments: { type: 'string', default: '300' },
      merchants: { type: 'string', default: '4' },
      concurrency: { type: 'string', default: '16' },
      'per-second': { type: 'string', default: '100' },
      'kill-after-ms': { type: 'string', default: '1500' },
      resend: { type: 'string', default: '40' },
      'converge-seconds': { type: 'string', default: '120' },
      'bank-timeout-seconds': { type: 'string', default: '5' },
      'sweep-interval-seconds': { type: 'string', default: '5' },
      'sweep-age-seconds': { type: 'string', default: '5' },
      // Bank-fault mode: the http connector against the bank simulator, which drops this share of
      // connections after committing (payments, status inquiries and refunds alike).
      'bank-faults': { type: 'boolean', default: false },
      'drop-share': { type: 'string', default: '0.2' },
      // Replicas mode: two APIs and two workers behind one address, killed and restarted in turn.
      replicas: { type: 'boolean', default: false },
      'kill-interval-ms': { type: 'string', default: '1500' },
    },
  });
  const o = {
    payments: Number(values.payments),
    merchants: Number(values.merchants),
    concurrency: Number(values.concurrency),
    perSecond: Number(values['per-second']),
    killAfterMs: Number(values['kill-after-ms']),
    resend: Number(values.resend),
    convergeMs: Number(values['converge-seconds']) * 1000,
  };
  const begun = Date.now();
  const stack = await startChaosStack(
    {
      bankTimeoutSeconds: Number(values['bank-timeout-seconds']),
      sweepIntervalSeconds: Number(values['sweep-interval-seconds']),
      sweepAgeSeconds: Number(values['sweep-age-seconds']),
      bankSimulator: values['bank-faults'],
    },
    say,
  );
  let ok = false;
  let store: MongoClient | undefined;
  let temporal: Client | undefined;
  let replicas: Replicas | undefined;
  let receiver: WebhookReceiver | undefined;
  const cleanUp = async () => {
    await replicas?.close();
    await receiver?.close();
    await stack.stop();
    if (process.env.TEMPORAL_ADDRESS)
      await temporal?.schedule
        .getHandle(PENDING_SWEEP_SCHEDULE_ID)
        .delete()
        .catch(() => undefined);
    if (process.env.MONGODB_URI)
      await store
        ?.db(stack.mongodbDb)
        .dropDatabase()
        .catch(() => undefined);
    await temporal?.connection.close();
    await store?.close();
  };
  onInterrupt(cleanUp, stack.dir);
  try {
    let gateway: GatewayProcesses | undefined;
    if (values.replicas) {
      replicas = await startReplicas(stack, 2);
      say(`replicas behind ${replicas.url}: ${replicas.describe()} (${seconds(Date.now() - begun)} after start)`);
    } else {
      gateway = await startGateway(stack, 1);
      say(
        `api and worker running as processes ${gateway.api.pid} and ${gateway.worker.pid} (${seconds(Date.now() - begun)} after start)`,
      );
    }
    const apiUrl = replicas?.url ?? stack.apiUrl;
    store = await new MongoClient(stack.mongodbUri, { retryWrites: false }).connect();
    temporal = await connectTemporalClient(stack.temporalAddress, stack.temporalNamespace, {
      masterKey: stack.gatewayEnv.MASTER_KEY!,
    });
    const db = store.db(stack.mongodbDb);

    const merchants = await provisionMerchants(stack, apiUrl, o.merchants);
    if (replicas) {
      receiver = await startWebhookReceiver();
      for (const m of merchants) await setWebhook(stack, apiUrl, m, receiver.url);
      say(`webhooks of every merchant go to ${receiver.url} (json)`);
    }
    if (stack.bankUrl) {
      const share = Number(values['drop-share']);
      const rule = await fetch(`${stack.bankUrl}/admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.bankAdminToken}` },
        body: JSON.stringify({
          match: { operation: ['payment', 'paymentInquiry', 'refund'] },
          fault: { kind: 'drop', afterCommit: true },
          share,
        }),
      });
      if (rule.status !== 201) throw new Error(`the simulator refused the fault rule: ${rule.status} ${await rule.text()}`);
      say(`bank faults: the simulator drops ${share * 100}% of connections after committing`);
    }
    const payments = paymentMix(o.payments, merchants);
    say(`${payments.length} payments for ${merchants.length} merchants, ${o.concurrency} in flight, up to ${o.perSecond}/s`);

    // The burst runs on while the gateway dies and comes back; requests in between get no answer.
    const burstStarted = Date.now();
    const { answers, done } = burst(apiUrl, payments, o);
    await sleep(o.killAfterMs);
    let restartedAt: number;
    let orphans: Promise<string[]>;
    if (replicas) {
      const sentBeforeKills = answers.size;
      const kills = await replicas.killInTurn(Number(values['kill-interval-ms']), say);
      restartedAt = Date.now();
      orphans = orphansAt(db, temporal, merchants);
      say(`${kills} kills between request ${sentBeforeKills} and ${answers.size} of the burst`);
    } else {
      await killGateway(gateway!);
      const killedAt = Date.now() - burstStarted;
      const answeredBeforeKill = [...answers.values()].filter((a) => isAnswered2xx(a)).length;
      const sentBeforeKill = answers.size;
      orphans = orphansAt(db, temporal, merchants); // orders stored whose workflow never started
      orphans.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      gateway = await startGateway(stack, 2);
      restartedAt = Date.now();
      say(
        `killed api and worker (SIGKILL) ${seconds(killedAt)} into the burst; both back ${seconds(restartedAt - burstStarted - killedAt)} later`,
      );
      say(`at the kill: ${answeredBeforeKill} answered 2xx, ${sentBeforeKill} requests finished`);
    }
    orphans.catch(() => undefined);
    const answeredBeforeRestart = [...answers.values()].filter((a) => isAnswered2xx(a)).length;
    await done;
    const burstMs = Date.now() - burstStarted;

    // A merchant resends what got no answer (or 429/503); the answers it gets then count as well.
    const unanswered = payments.filter((p) => !isAnswered2xx(answers.get(p.orderId)));
    const sampleSize = Math.min(o.resend, unanswered.length);
    const sample = Array.from({ length: sampleSize }, (_, i) => unanswered[Math.floor((i * unanswered.length) / sampleSize)]!);
    const resent = await resendAll(apiUrl, sample);
    const finalAnswers = new Map(answers);
    for (const [orderId, a] of resent) if (isAnswered2xx(a)) finalAnswers.set(orderId, a);

    let observation: Observation;
    for (;;) {
      observation = await observe(db, temporal, merchants);
      const settled = converged(observation) && (!receiver || webhooksArrived(observation.stored, receiver));
      if (settled || Date.now() - restartedAt > o.convergeMs) break;
      await sleep(1000);
    }
    const convergeMs = Date.now() - restartedAt;
    const isConverged = converged(observation);
    const latest = isConverged ? await latestRuns(temporal, observation.stored.values()) : new Map<string, string>();
    const verdict = verify(payments, finalAnswers, observation, latest);

    const problems = [...verdict.problems];
    let bankCounts: Record<string, number> = {};
    if (stack.bankUrl && isConverged) {
      const books = (await (
        await fetch(`${stack.bankUrl}/admin/books`, { headers: { authorization: `Bearer ${stack.bankAdminToken}` } })
      ).json()) as { payments: BankBookPayment[] };
      const mine = new Set(merchants);
      const bank = verifyBankBooks(observation.stored, {
        payments: books.payments.filter((p) => mine.has(p.request.merchantIdentifier)),
      });
      problems.push(...bank.problems);
      bankCounts = bank.counts;
    }
    let webhookCounts: Record<string, number> = {};
    if (receiver && isConverged) {
      const hooks = verifyWebhooks(observation.stored, receiver);
      problems.push(...hooks.problems);
      webhookCounts = hooks.counts;
    }
    if (!isConverged) problems.unshift(`did not converge within ${seconds(o.convergeMs)} of the restart`);
    const resentUnanswered = [...resent].filter(([, a]) => !isAnswered2xx(a)).map(([id]) => id);
    if (resentUnanswered.length > 0) problems.push(`resent but not answered 2xx: ${resentUnanswered.length}`);
    const unexpected = [...answers.values()].filter(
      (a) => a.status !== 'none' && !isAnswered2xx(a) && a.status !== 429 && a.status !== 503,
    );
    if (unexpected.length > 0) problems.push(`unexpected answers: ${describeAnswers(unexpected)}`);
    if (answeredBeforeRestart === payments.length) problems.push('the kill came after the burst: every request was answered');

    const orphanIds = await orphans;
    console.table({
      sent: payments.length,
      'answered 2xx': [...answers.values()].filter((a) => isAnswered2xx(a)).length,
      'answered otherwise': [...answers.values()].filter((a) => a.status !== 'none' && !isAnswered2xx(a)).length,
      unanswered: [...answers.values()].filter((a) => a.status === 'none').length,
      'orphans at the kill (stored, no workflow)': orphanIds.length,
      'orphans left to the sweep (not resent)': orphanIds.filter((id) => !resent.has(id)).length,
      'sweep runs': (await temporal.workflow.count(`Kind = 'sweep' AND TaskQueue = '${stack.gatewayEnv.TEMPORAL_TASK_QUEUE}'`))
        .count,
      resent: resent.size,
      'resent, answered 2xx': resent.size - resentUnanswered.length,
      ...verdict.counts,
      ...bankCounts,
      ...webhookCounts,
      'burst s': Number((burstMs / 1000).toFixed(1)),
      'converged s after restart': Number((convergeMs / 1000).toFixed(1)),
      'total s': Number(((Date.now() - begun) / 1000).toFixed(1)),
    });
    say(`answers of the burst: ${describeAnswers([...answers.values()])}`);
    if (replicas) say(`proxy connections: ${replicas.connections()}`);
    for (const p of problems) say(`LOSS: ${p}`);
    if (!isConverged) {
      const stuck = [...observation.stored.values()].filter((t) => t.status === 'Pending').slice(0, 5);
      for (const t of stuck) say(`not final: ${await explainWorkflow(temporal, t)}`);
    }
    ok = problems.length === 0;
    say(
      ok
        ? `PASS: nothing lost, nothing paid twice, no amount changed${stack.bankUrl ? ", the gateway's and the bank's books agree to the paisa" : ''}${receiver ? ', every final order announced by one webhook' : ''}`
        : 'FAIL',
    );
    return ok;
  } finally {
    await cleanUp();
    if (ok) removeChaosDir(stack);
    else say(`logs kept in ${stack.dir}/logs`);
  }
}

/** Merchants provisioned through the operator API, as an operator would. */
async function provisionMerchants(stack: ChaosStack, apiUrl: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${apiUrl}/ops/v1/merchants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.opsToken}` },
      body: JSON.stringify({ name: `Chaos Merchant ${i + 1}` }),
    });
    const json = (await res.json()) as { data?: { merchantIdentifier?: string } };
    if (res.status !== 201 || !json.data?.merchantIdentifier) throw new Error(`provisioning answered ${res.status}`);
    ids.push(json.data.merchantIdentifier);
  }
  return ids;
}

/** A merchant's webhook address and format, through the operator API. */
async function setWebhook(stack: ChaosStack, apiUrl: string, merchantIdentifier: string, webhookUrl: string): Promise<void> {
  const res = await fetch(`${apiUrl}/ops/v1/merchants/${merchantIdentifier}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.opsToken}` },
    body: JSON.stringify({ webhookUrl, webhookFormat: 'json' }),
  });
  if (res.status !== 200) throw new Error(`setting the webhook answered ${res.status}: ${await res.text()}`);
}

/** Stored orders whose payment workflow does not exist (yet): the sweep's or the resend's work. */
async function orphansAt(db: Parameters<typeof observe>[0], temporal: Client, merchants: string[]): Promise<string[]> {
  const { stored } = await observe(db, temporal, merchants);
  const orphans: string[] = [];
  for (const t of stored.values()) {
    try {
      await temporal.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId)).describe();
    } catch (e) {
      if (!(e instanceof WorkflowNotFoundError)) throw e;
      orphans.push(t.orderId);
    }
  }
  return orphans;
}

async function resendAll(apiUrl: string, payments: ChaosPayment[]): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  let next = 0;
  const sender = async () => {
    for (let i = next++; i < payments.length; i = next++) answers.set(payments[i]!.orderId, await resend(apiUrl, payments[i]!));
  };
  await Promise.all(Array.from({ length: 4 }, sender));
  return answers;
}

function describeAnswers(answers: Answer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) {
    const key = a.status === 'none' ? `no answer (${a.error})` : `HTTP ${a.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n} × ${k}`).join(', ');
}

function onInterrupt(cleanUp: () => Promise<void>, dir: string) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`${signal}: stopping every process (logs kept in ${dir}/logs)`);
      cleanUp().finally(() => process.exit(130));
    });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (e: Error) => {
    console.error(`[chaos] ${e.stack ?? e.message}`);
    process.exit(1);
  },
);
