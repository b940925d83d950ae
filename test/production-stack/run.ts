/**
 * `npm run test:production-stack`: starts `npm run stack:production` (its own data directory),
 * waits until it says ready, runs the probes of test/production-stack/*.test.ts against it from
 * outside (trusting Caddy's local CA, as a payer's machine trusts a public one), then stops it
 * with SIGINT, as Ctrl-C does, and checks that it stopped cleanly and left no port open.
 * Not part of `npm test`: the first run builds the Temporal server (minutes), and every run starts
 * twelve processes; .ci/run runs it after `npm test`. docs/operators/production.md says what it
 * proves, docs/contributors/tests.md what it costs.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { canConnect } from '../../src/devstack/process';
import type { StackState } from '../../src/devstack/production/stack';
import { startStackProcess } from '../support/stack-process';

const root = path.resolve(__dirname, '../..');
// `--cluster` (npm run test:cluster): the same probes on `npm run stack:cluster`'s topology, where
// the Temporal probe kills each of the cluster's processes in turn, then the store's FerretDB and PostgreSQL.
const cluster = process.argv.includes('--cluster');
const dataDir = path.join(root, '.data', cluster ? 'cluster-stack-test' : 'production-stack-test');
// Standard output is mocha's report alone, ending with its closing line (spec-with-totals.cjs; with
// MOCHA_TOTALS_FILE, CI's total of every run): the stack's own lines and ours go to standard error.
const say = (line: string) => console.error(`[test:production-stack] ${line}`);

async function main(): Promise<number> {
  // A fresh stack each run: what is proven does not depend on yesterday's data.
  rmSync(dataDir, { recursive: true, force: true });
  const stack = startStackProcess({ dataDir, cluster, movableClock: true, say: (chunk) => process.stderr.write(chunk) });
  const { exited, ready } = stack;
  const timeout = setTimeout(() => stack.child.kill('SIGINT'), 20 * 60_000);
  let failed = 1;
  try {
    await ready;
    clearTimeout(timeout);
    const stateFile = path.join(dataDir, 'stack.json');
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as StackState;
    const mocha = spawn(
      process.execPath,
      [path.join(root, 'node_modules/mocha/bin/mocha.js'), '--timeout', '300000', 'test/production-stack/*.test.ts'],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, NODE_EXTRA_CA_CERTS: state.caddyRootCertificate, PRODUCTION_STACK_STATE: stateFile },
      },
    );
    failed = await new Promise<number>((resolve) => mocha.once('exit', (code) => resolve(code ?? 1)));
  } catch (e) {
    say((e as Error).message);
  }

  // Ctrl-C: every process stops, nothing keeps a port.
  const state = (() => {
    try {
      return JSON.parse(readFileSync(path.join(dataDir, 'stack.json'), 'utf8')) as StackState;
    } catch {
      return undefined;
    }
  })();
  stack.child.kill('SIGINT');
  const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 90_000))]);
  if (code === 'hung') {
    say('the stack did not stop within 90 s of SIGINT');
    stack.child.kill('SIGKILL');
    return 1;
  }
  if (code !== 0) {
    say(`the stack exited with ${code} after SIGINT`);
    return 1;
  }
  if (state) {
    const p = state.ports;
    const all = [
      p.https,
      p.http,
      ...p.api,
      ...p.ops,
      p.bankSimulator,
      p.acquirer,
      p.merchantSite,
      p.codec,
      p.postgresql,
      p.store,
      p.temporal.frontend,
      ...(cluster ? [p.temporal.history, p.temporal.history2, p.temporal.matching, p.temporal.worker] : []),
    ];
    const open = [];
    for (const port of all) if (await canConnect('127.0.0.1', port)) open.push(port);
    if (open.length > 0) {
      say(`after SIGINT, ports still open: ${open.join(', ')}`);
      return 1;
    }
  }
  say(`stopped cleanly on SIGINT; probes ${failed === 0 ? 'passed' : 'FAILED'}`);
  return failed;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
