import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/** What one measured load produced: throughput and latency, as every bench row reports them. */
export interface LoadResult {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  failures: number;
  /** Requests answered, or operations completed by a loop. */
  total?: number;
  /** CPU the load generator spent per request (HTTP loads only). */
  clientCpuUsPerRequest?: number;
}

export interface HttpRequestSpec {
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

/** One HTTP load: the requests are sent in turn, cycling; `sequenceToken` in a body becomes a fresh number per request. */
export interface LoadPlan {
  url: string;
  connections: number;
  seconds: number;
  requests: HttpRequestSpec[];
  sequenceToken?: string;
}

/**
 * Drives the plan with autocannon in a child process: the load generator then competes with the
 * gateway for the machine's cores, as a real client would, but not for its event loop.
 */
export async function httpLoad(plan: LoadPlan): Promise<LoadResult> {
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', childScript, JSON.stringify(plan)], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as LoadResult;
}

const childScript = path.join(__dirname, 'autocannon-child.ts');
const execFileAsync = promisify(execFile);

/**
 * Runs `op` in `concurrency` loops for `seconds`: the same shape of load as autocannon's
 * connections, for ceilings measured below HTTP (a driver call, a workflow start).
 */
export async function loopLoad(
  op: (i: number) => Promise<unknown>,
  o: { concurrency: number; seconds: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  let counter = 0;
  const deadline = performance.now() + o.seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        try {
          await op(counter++);
          latencies.push(performance.now() - t);
        } catch {
          failures++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
  return {
    perSecond: round(latencies.length / elapsed),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    meanMs: round(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)),
    failures,
    total: latencies.length,
  };
}

export const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Calls `op(0) .. op(count - 1)`, `concurrency` at a time. */
export async function runConcurrently(count: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await op(next++);
    }),
  );
}
