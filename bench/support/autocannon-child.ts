/**
 * Runs one autocannon load in its own process, so the load generator does not share the event
 * loop of the gateway it measures. Reads a LoadPlan as JSON from argv[2]; prints the result JSON.
 */
import autocannon from 'autocannon';
import type { LoadPlan } from './load';

const plan = JSON.parse(process.argv[2]!) as LoadPlan;
let n = 0;
autocannon(
  {
    url: plan.url,
    connections: plan.connections,
    duration: plan.seconds,
    requests: [
      {
        setupRequest: (req) => {
          const spec = plan.requests[n % plan.requests.length]!;
          const seq = String(n++);
          const body = plan.sequenceToken ? spec.body?.split(plan.sequenceToken).join(seq) : spec.body;
          return { ...req, method: spec.method ?? 'POST', headers: spec.headers, body };
        },
      },
    ],
  },
  (err, r) => {
    if (err) throw err;
    process.stdout.write(
      JSON.stringify({
        perSecond: r.requests.average,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        meanMs: r.latency.average,
        total: r.requests.total,
        failures: r.non2xx + r.errors + r.timeouts,
        clientCpuUsPerRequest: Math.round((process.cpuUsage().user + process.cpuUsage().system) / Math.max(1, r.requests.total)),
      }),
    );
  },
);
