import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { createActivities } from '../../activities';
import { freePort } from '../../src/devstack/process';
import { activityDeps } from '../../src/main/runtime';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { startPayment, startPaymentDeps } from '../../src/usecases/start-payment';
import { RefundRequestRepository } from '../../src/store/refund-request-repository';
import { startRefund, startRefundDeps } from '../../src/usecases/start-refund';
import { PROJECT_ROOT } from '../support/cli';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId } from '../support/payments';
import { refundFinished } from '../support/refunds';
import { startWorkerProcess } from '../support/worker-process';

const deployFile = (name: string) => readFileSync(path.join(PROJECT_ROOT, 'deploy', name), 'utf8');

/** Prometheus's rule file format, as far as these rules use it. */
const ruleFileSchema = z.strictObject({
  groups: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        rules: z
          .array(
            z.strictObject({
              alert: z.string().regex(/^[A-Za-z][A-Za-z0-9]+$/),
              expr: z.string().min(1),
              for: z
                .string()
                .regex(/^\d+[smh]$/)
                .optional(),
              labels: z.strictObject({ severity: z.enum(['page', 'ticket']) }),
              annotations: z.strictObject({ summary: z.string().min(1), description: z.string().min(1) }),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
});

const scrapeConfigSchema = z.object({
  rule_files: z.array(z.string()),
  scrape_configs: z.array(z.object({ job_name: z.string(), metrics_path: z.literal('/metrics') })),
});

interface Selector {
  metric: string;
  matchers: { label: string; op: string; value: string }[];
}

/** Parses one PromQL expression with Prometheus's own grammar; throws at a syntax error, returns its selectors. */
function selectorsOf(expr: string): Selector[] {
  const tree = parser.parse(expr);
  const selectors: Selector[] = [];
  const cursor = tree.cursor();
  do {
    if (cursor.type.isError) throw new Error(`syntax error at ${cursor.from} in: ${expr}`);
    if (cursor.name !== 'VectorSelector') continue;
    const node = cursor.node;
    const id = node.getChild('Identifier');
    const matchers = node
      .getChild('LabelMatchers')
      ?.getChildren('UnquotedLabelMatcher')
      .map((m) => ({
        label: expr.slice(m.getChild('LabelName')!.from, m.getChild('LabelName')!.to),
        op: expr.slice(m.getChild('MatchOp')!.from, m.getChild('MatchOp')!.to),
        value: JSON.parse(expr.slice(m.getChild('StringLiteral')!.from, m.getChild('StringLiteral')!.to)) as string,
      }));
    if (id) selectors.push({ metric: expr.slice(id.from, id.to), matchers: matchers ?? [] });
  } while (cursor.next());
  return selectors;
}

/** Series names (declared or sampled) and each label's values in a Prometheus text exposition. */
function exposition(text: string): { names: Set<string>; labels: Map<string, Set<string>> } {
  const names = new Set<string>();
  const labels = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    // A family declared without samples yet (a counter no merchant has moved) is served all the same.
    const declared = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (\w+)/.exec(line);
    if (declared) {
      const suffixes = declared[2] === 'histogram' ? ['_bucket', '_sum', '_count'] : [''];
      for (const suffix of suffixes) names.add(declared[1]! + suffix);
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s/.exec(line);
    if (!m) continue;
    names.add(m[1]!);
    for (const [, k, v] of (m[3] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) {
      if (!labels.has(k!)) labels.set(k!, new Set());
      labels.get(k!)!.add(v!);
    }
  }
  return { names, labels };
}

/**
 * The alert rules and the dashboard in deploy/, checked as Prometheus and Grafana would read them, and
 * against what a gateway of this version serves: an API replica's /metrics and a worker process's
 * WORKER_METRICS_ADDRESS after a real payment, on the test's own Temporal server and store.
 */
describe('Monitoring: deploy/prometheus and deploy/grafana', function () {
  this.timeout(180_000);
  let gw: TestGateway;
  let worker: ChildProcess | undefined;
  let served: { names: Set<string>; labels: Map<string, Set<string>> };
  let workerServed: Set<string>;
  let apiServed: Set<string>;
  let stuck: WorkflowHandle | undefined;

  const rules = ruleFileSchema.parse(parseYaml(deployFile('prometheus/alerts.yml')));
  const alerts = rules.groups.flatMap((g) => g.rules);
  const dashboard = JSON.parse(deployFile('grafana/gateway-dashboard.json')) as {
    panels: { title: string; targets: { expr: string }[] }[];
  };
  const expressions = [
    ...alerts.map((a) => ({ where: `alert ${a.alert}`, expr: a.expr })),
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => ({ where: `panel "${p.title}"`, expr: t.expr }))),
  ];

  before(async () => {
    gw = await startTestGateway();
    const taskQueue = `metrics-${randomBytes(4).toString('hex')}`;
    const metricsAddress = `127.0.0.1:${await freePort()}`;
    worker = await startWorkerProcess(gw, taskQueue, { WORKER_METRICS_ADDRESS: metricsAddress });
    // One payment through that worker: its workflow, its local and regular activities, its webhook.
    const m = await gw.newMerchant('Monitoring');
    const orderId = newOrderId('metrics');
    const started = await startPayment(
      { ...startPaymentDeps({ ...gw.rt, now: () => new Date() }), taskQueue },
      {
        merchantIdentifier: m.merchantIdentifier,
        orderId,
        amountPaise: 10_000 as never,
        productDescription: 'metrics',
        buyerName: null,
        buyerEmail: null,
        ipAddress: null,
        instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox' },
      },
    );
    assert.equal(started.kind, 'started');
    const result = await gw.rt.temporal.workflow.getHandle(paymentWorkflowId(m.merchantIdentifier, orderId)).result();
    assert.equal(result.status, 'Success');
    // Its refund, whose steps are regular activities (the payment's are local).
    const refundDeps = {
      ...startRefundDeps({ ...gw.rt, refundRequests: new RefundRequestRepository(gw.rt.store.db), now: () => new Date() }),
      taskQueue,
    };
    const refund = { merchantIdentifier: m.merchantIdentifier, orderId, merchantRefId: `r-${orderId}` } as const;
    await startRefund(refundDeps, { ...refund, updateDesired: '14', updateReason: 'metrics' });
    await refundFinished(gw, refund.merchantIdentifier, orderId, refund.merchantRefId);
    // A workflow whose input the worker cannot read (started without the payload codec): its task
    // fails on every attempt, a stuck workflow as WorkflowTasksFailing must see it.
    const plain = new Client({ connection: gw.rt.temporal.connection, namespace: gw.rt.config.temporal.namespace });
    stuck = await plain.workflow.start('paymentWorkflow', { workflowId: `stuck-${taskQueue}`, taskQueue, args: [{}] });
    // The routes the rules name, once each, so the API's histogram has their templates.
    for (const route of ['/transact', '/transactU', '/checkout/none/pay', '/pl/none/pay', '/api/payments/v1/status'])
      await request(`${gw.baseUrl}${route}`, { method: 'POST', body: '' });
    const ops = await request(`${gw.baseUrl}/metrics`, { headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` } });
    assert.equal(ops.status, 200);
    let workerText = '';
    for (let tries = 0; !workerText.includes('temporal_workflow_task_execution_failed{'); tries++) {
      assert.ok(tries < 60, "the stuck workflow's failed task is counted within 30 s");
      if (tries) await new Promise((resolve) => setTimeout(resolve, 500));
      const fromWorker = await fetch(`http://${metricsAddress}/metrics`);
      assert.equal(fromWorker.status, 200);
      workerText = await fromWorker.text();
    }
    workerServed = exposition(workerText).names;
    apiServed = exposition(ops.text).names;
    served = exposition(`${ops.text}\n${workerText}`);
  });
  after(async () => {
    await stuck?.terminate('test over').catch(() => undefined);
    worker?.kill('SIGKILL');
    await gw?.stop();
  });

  it('the rule file is in Prometheus format, every alert named once, with severity and explanation', () => {
    const names = alerts.map((a) => a.alert);
    assert.deepEqual(names, [...new Set(names)]);
    // What an operator must hear of: stuck workflows, settlements needing attention, disabled
    // endpoints, bank errors and slow payments.
    for (const required of [
      'WorkflowTasksFailing',
      'SettlementNeedsAttention',
      'WebhookEndpointDisabled',
      'BankErrors',
      'PaymentBankCallsSlow',
    ])
      assert.ok(names.includes(required), required);
    const config = scrapeConfigSchema.parse(parseYaml(deployFile('prometheus/prometheus.yml')));
    assert.deepEqual(config.rule_files, ['alerts.yml']);
    const jobs = new Set(config.scrape_configs.map((s) => s.job_name));
    for (const { where, expr } of expressions)
      for (const s of selectorsOf(expr))
        for (const m of s.matchers.filter((x) => x.label === 'job'))
          for (const job of m.value.split('|')) assert.ok(jobs.has(job), `${where}: job ${job} is scraped`);
  });

  it('every expression parses as PromQL (Prometheus grammar) and a planted error is caught', () => {
    for (const { where, expr } of expressions) assert.doesNotThrow(() => selectorsOf(expr), where);
    assert.throws(() => selectorsOf('sum(rate(http_requests_total[5m]) > '), /syntax error/);
    assert.throws(() => selectorsOf('rate(http_requests_total{status=~"5.."}[5m) > 0'), /syntax error/);
  });

  it('every metric named is served by an API replica or a worker of this version', () => {
    assert.ok(workerServed.has('temporal_workflow_completed'), 'the worker serves the SDK metrics, counters without _total');
    assert.ok(workerServed.has('temporal_local_activity_execution_latency_bucket'), 'durations as histograms');
    assert.ok(workerServed.has('temporal_workflow_task_execution_failed'), 'the stuck workflow counted');
    // Failure counters appear once something failed (no step of a sandbox payment or refund does):
    // these must be names the installed SDK core defines, beside the family it does serve.
    const core = readFileSync(
      path.join(PROJECT_ROOT, 'node_modules/@temporalio/core-bridge/releases/x86_64-unknown-linux-gnu/index.node'),
    ).toString('latin1');
    const onlyAfterFailure = new Map([
      ['temporal_activity_execution_failed', 'temporal_activity_execution_latency_bucket'],
      ['temporal_local_activity_execution_failed', 'temporal_local_activity_execution_latency_bucket'],
      ['temporal_workflow_failed', 'temporal_workflow_completed'],
    ]);
    for (const [name, sibling] of onlyAfterFailure) {
      assert.ok(core.includes(name.replace(/^temporal_/, '')), `the SDK core defines ${name}`);
      assert.ok(served.names.has(sibling), `${sibling} is served`);
    }
    // Each selector's metric must be served by the job it names: an API replica's or a worker's.
    const byJob: Record<string, Set<string>> = { gateway: apiServed, 'gateway-worker': workerServed };
    const unknown = expressions.flatMap(({ where, expr }) =>
      selectorsOf(expr)
        .filter((s) => s.metric !== 'up' && !onlyAfterFailure.has(s.metric))
        .filter((s) => {
          const job = s.matchers.find((m) => m.label === 'job' && m.op === '=')?.value;
          return !(job ? byJob[job] : served.names)?.has(s.metric);
        })
        .map((s) => `${where}: ${s.metric}`),
    );
    assert.deepEqual(unknown, []);
  });

  it('every route and activity a matcher names is one the gateway has', () => {
    const activities = new Set(Object.keys(createActivities(activityDeps(gw.rt))));
    const routes = served.labels.get('route') ?? new Set();
    for (const { where, expr } of expressions)
      for (const s of selectorsOf(expr))
        for (const m of s.matchers) {
          const values = m.op === '=~' ? m.value.split('|') : [m.value];
          if (m.label === 'route') for (const v of values) assert.ok(routes.has(v), `${where}: route ${v}`);
          if (m.label === 'activity_type') for (const v of values) assert.ok(activities.has(v), `${where}: activity ${v}`);
        }
  });
});
