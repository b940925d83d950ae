import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BankCallError, HttpBankConnector } from '../../src/bank/http-connector';
import { signedCall } from '../../src/bank/signed-http';
import { refuseSimulatorBank, SimulatorBankRefused } from '../../src/bank/simulator-marker';
import { startBankSimulator, type BankSimulator } from '../../src/bank/simulator/server';
import { canConnect, freePort } from '../../src/devstack/process';
import { projectRoot } from '../../src/devstack/paths';
import { request } from '../support/http';

/**
 * The bank simulator is a tester's tool, never a bank of production: its /admin/* controls (which
 * settle any payment and list every payer's VPA) take its admin token, it never signs with the
 * gateway's BANK_SECRET, and a production gateway refuses to start against it or to believe its answers.
 */
describe('Bank simulator lockdown: admin token, own secret, refused by production', function () {
  this.timeout(60_000);
  const secret = randomBytes(32).toString('hex');
  let sim: BankSimulator;
  before(async () => {
    sim = await startBankSimulator({ secret, adminToken: 'admin-token-of-this-test-0123456789' });
  });
  after(() => sim.close());

  it('answers /admin/* only with its admin token (401 without it, or with another)', async () => {
    const routes: [string, string, object?][] = [
      ['GET', '/admin/books'],
      ['GET', '/admin/faults'],
      ['POST', '/admin/faults', { match: {}, fault: { kind: 'silence' } }],
      ['DELETE', '/admin/faults'],
      ['POST', '/admin/payments/any/settle', { approved: true }],
      ['POST', '/admin/callbacks', {}],
      ['POST', '/admin/reset'],
      // The routes match without regard to case: so does the guard.
      ['GET', '/ADMIN/books'],
      ['GET', '/Admin/faults'],
      ['POST', '/aDmin/reset'],
    ];
    for (const [method, p, body] of routes) {
      for (const authorization of [undefined, 'Bearer wrong', `Basic ${sim.adminToken}`, `Bearer ${sim.adminToken}x`]) {
        const res = await request(`${sim.url}${p}`, {
          method,
          ...(body ? { body } : {}),
          ...(authorization ? { headers: { authorization } } : {}),
        });
        assert.equal(res.status, 401, `${method} ${p} with ${authorization ?? 'no token'}`);
      }
    }
    assert.equal(sim.faults.list().length, 0, 'nothing changed');
    const books = await request(`${sim.url}/admin/books`, { headers: { authorization: `Bearer ${sim.adminToken}` } });
    assert.equal(books.status, 200);
    assert.ok(books.json.totals);
  });

  it('marks every answer as the simulator (X-Bank-Simulator)', async () => {
    for (const p of ['/health', '/openapi.json', '/v1/payments/none', '/admin/books', '/pages/pay/none']) {
      const res = await request(`${sim.url}${p}`);
      assert.equal(res.headers.get('x-bank-simulator'), 'sandbox', p);
    }
  });

  it("production refuses to start against it: the start-up check's answer carries the marker", async () => {
    await assert.rejects(refuseSimulatorBank({ baseUrl: sim.url, secret, timeoutMs: 5000 }), SimulatorBankRefused);
    // An acquirer (no marker) passes; one not reachable now does not stop the start.
    const acquirer = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((r) => acquirer.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(acquirer.address() as AddressInfo).port}`;
      assert.equal(await refuseSimulatorBank({ baseUrl: url, secret, timeoutMs: 5000 }), 'acquirer');
    } finally {
      acquirer.close();
    }
    assert.equal(
      await refuseSimulatorBank({ baseUrl: `http://127.0.0.1:${await freePort()}`, secret, timeoutMs: 2000 }),
      'unreachable',
    );
  });

  it("a production connector believes none of the simulator's answers; a sandbox one does", async () => {
    const options = { baseUrl: sim.url, secret, gatewayBaseUrl: 'http://127.0.0.1:9', callTimeoutMs: 5000 };
    const production = new HttpBankConnector({ ...options, refuseSimulator: true });
    await assert.rejects(production.inquirePayment({ txnId: 'ANYTXN' }), (e: Error) => {
      assert.ok(e instanceof BankCallError);
      assert.match(e.message, /bank simulator/);
      return true;
    });
    assert.equal(await new HttpBankConnector(options).inquirePayment({ txnId: 'ANYTXN' }), null);
  });

  it("the simulator process signs with its own secret, never the gateway's BANK_SECRET, and refuses production", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bank-sim-'));
    const port = await freePort();
    const gatewaySecret = randomBytes(32).toString('hex');
    const entry = path.join(projectRoot, 'src', 'main', 'bank-simulator.ts');
    const run = (env: NodeJS.ProcessEnv) =>
      spawn(process.execPath, ['--import', 'tsx', entry, '--port', String(port), '--data-dir', dataDir, '--quiet'], {
        cwd: projectRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const refused = run({ GATEWAY_ENV: 'production', BANK_SECRET: gatewaySecret });
    const code = await new Promise<number | null>((r) => refused.once('exit', r));
    assert.equal(code, 1, 'refuses GATEWAY_ENV=production');

    const child = run({ BANK_SECRET: gatewaySecret });
    try {
      const deadline = Date.now() + 30_000;
      while (!(await canConnect('127.0.0.1', port))) {
        assert.ok(Date.now() < deadline && child.exitCode === null, 'the simulator listens');
        await new Promise((r) => setTimeout(r, 100));
      }
      const inquiry = (s: string) =>
        signedCall({ secret: s, method: 'GET', url: `http://127.0.0.1:${port}/v1/payments/none`, timeoutMs: 5000 });
      assert.equal((await inquiry(gatewaySecret)).status, 401, "the gateway's BANK_SECRET signs nothing there");
      const own = readFileSync(path.join(dataDir, 'bank.secret'), 'utf8').trim();
      assert.equal((await inquiry(own)).status, 404, 'its own secret does');
      const admin = readFileSync(path.join(dataDir, 'bank-simulator-admin.token'), 'utf8').trim();
      const books = `http://127.0.0.1:${port}/admin/books`;
      assert.equal((await request(books)).status, 401);
      assert.equal((await request(books, { headers: { authorization: `Bearer ${admin}` } })).status, 200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
