/**
 * Probes of the running production stack (`npm run test:production-stack` starts it and runs this
 * file with Caddy's local CA trusted; PRODUCTION_STACK_STATE names its stack.json). From outside,
 * as an attacker and an operator would: what listens where, what the public port answers, money
 * moving through Caddy, and processes killed while it moves.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { signedCall } from '../../src/bank/signed-http';
import { firstOffPeakInstant, isInPeakWindow } from '../../src/domain/peak-windows';
import type { StackSecrets } from '../../src/devstack/production/secrets';
import type { StackState } from '../../src/devstack/production/stack';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { payOnCheckoutPage, postForm, postTransactU, v8Data } from '../support/checkout';
import type { TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { newOrderId } from '../support/payments';
import { startReceiver } from '../support/receiver';
import { refund } from '../support/refunds';
import { createData, istDate, notifyData, transactU } from '../support/mandates';
import { heard, notifyLane, refundLane, until, type NotifyAsked, type RefundAsked } from './steady-mix';
import { finalCheck, type BooksRead } from './final-check';
import { openProbeScope } from './probe-scope';
import { moveApiClock } from './api-clock';
import { debitsAtBank, debitsCanFallDue, notifyDebitsDue, slowBankDebits, type BankDebit, type DueDebit } from './debits-due';
import { debitsExecutedOnce } from './debits-executed';
import { holdDown, killHeldDown } from './hold-down';
import { DebitsOfKills } from './debits-of-kills';
import { shardLog, shardsAcquired } from './shard-log';
import { connectStackTemporal } from './stack-temporal';
import { workerAtBank } from './debit-holders';

const stateFile = process.env.PRODUCTION_STACK_STATE;
const readState = () => JSON.parse(readFileSync(stateFile!, 'utf8')) as StackState;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));

describe('the production stack, probed from outside', function () {
  if (!stateFile) {
    it('runs under npm run test:production-stack only (it starts the stack)', function () {
      this.skip();
    });
    return;
  }
  const state = readState();
  const secrets = JSON.parse(readFileSync(path.join(state.dataDir, 'secrets.json'), 'utf8')) as StackSecrets;
  const publicUrl = state.publicUrl;
  /** The simulator's own listener (loopback, plain http, marked): the bank's operator reads its books there. */
  const bankUrl = `http://127.0.0.1:${state.ports.bankSimulator}`;
  /**
   * The acquirer double: the gateway's BANK_BASE_URL and the address of the bank's payer pages. The
   * checkout helpers need a base URL and the bank's address: here Caddy and the acquirer double
   * (the payer of these probes runs on this machine; a real acquirer's pages are public).
   */
  const acquirerUrl = `https://127.0.0.1:${state.ports.acquirer}`;
  const gw = { baseUrl: publicUrl, bank: { url: acquirerUrl } } as unknown as TestGateway;
  const adminAuth = { authorization: `Bearer ${secrets.BANK_SIMULATOR_ADMIN_TOKEN}` };
  /** The operator's side: an API replica's operator listener on loopback (never behind the public site). */
  const opsUrl = `http://127.0.0.1:${state.ports.ops[0]}`;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let merchant: MerchantCredentials;
  /** The debits (order ids) the gateway answered 1109 in any probe: the final check's scheduled debits. */
  const debitsAccepted: string[] = [];
  /** The debits that fell due during a kill (txnId): when the probe first saw each at the bank. */
  const debitsSeenAtBank = new Map<string, number>();

  before(async () => {
    // Production delivers webhooks over https only: the merchant's site (the outside Caddy) fronts the receiver.
    receiver = await startReceiver(undefined, state.ports.merchantReceiver);
    const res = await request(`${opsUrl}/ops/v1/merchants`, {
      body: { name: 'Production Stack Chai', webhookUrl: `https://127.0.0.1:${state.ports.merchantSite}/hooks/payments` },
      headers: { authorization: `Bearer ${secrets.OPS_TOKEN}` },
    });
    assert.equal(res.status, 201, res.text);
    merchant = res.json.data as MerchantCredentials;
  });
  after(async () => receiver?.close());

  const statusOf = async (orderId: string) => {
    const res = await checkStatus(publicUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId });
    return res.json?.data?.orders?.[0] as Record<string, any> | undefined;
  };
  async function finalStatus(orderId: string, timeoutMs = 120_000): Promise<Record<string, any>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const order = await statusOf(orderId).catch(() => undefined);
      if (order && order.txnStatus !== '2') return order;
      if (Date.now() > deadline)
        throw new Error(`order ${orderId} not final after ${timeoutMs / 1000}s: ${JSON.stringify(order)}`);
      await sleep(500);
    }
  }
  /**
   * A payer paying a hosted checkout by card (typed on the bank's page; production offers UPI by QR
   * only), through Caddy. When a hop fails, the merchant resends the order (until it has the
   * checkout's address) and the payer opens the checkout page again, as people would. Resolves
   * true once the payer has paid at the bank; false when the merchant never got the checkout's
   * address (its order was never shown to a payer).
   */
  async function payThroughCaddy(orderId: string, amount = '25050', o: Patience = {}): Promise<boolean> {
    const data = v8Data(merchant, orderId, { returnUrl: 'https://merchant.example/return', orderDetail: { amount } });
    let location: string | undefined;
    // A payer waits on the checkout's "processing" page as long as the gateway may take to reach the
    // bank after a worker died holding the bank request: Temporal retries that activity once its
    // 30 s start-to-close timeout expires (workflows/payment.ts), then the bank's page is offered.
    const giveUpAt = Date.now() + (o.patienceMs ?? 90_000);
    for (;;) {
      try {
        if (!location) {
          const posted = await postTransactU(gw, merchant.secretKey, data, { browser: true });
          if (posted.status === 303) location = posted.location!;
          // A 5xx while the store is away: the merchant sends the same order again, which answers
          // the same checkout once the gateway is back.
          else if (o.resendOn5xx && posted.status >= 500)
            throw new Error(`transactU ${posted.status}: ${posted.text.slice(0, 200)}`);
          else if ((await statusOf(orderId))?.orderDetail)
            return false; // created, but its answer was lost
          else throw new Error(`transactU ${posted.status}: ${posted.text.slice(0, 200)}`);
        }
        const order = await statusOf(orderId);
        if (order?.txnStatus === '0') return true;
        await payOnCheckoutPage(gw, location, [['cardNumber', '4012001037141112']]);
        return true;
      } catch (e) {
        o.failures?.push((e as Error).message.slice(0, 120));
        // The pay form's answer was lost after the gateway asked the bank: the payer's browser is
        // at the bank's page (its address came with the bank's answer), and pays there.
        const atBank = (await books().catch(() => undefined))?.payments.find(
          (p) => p.request.orderId === orderId && p.awaitingPayer && p.answer?.redirect?.url,
        );
        if (atBank) {
          const back = await postForm(atBank.answer!.redirect!.url, [
            ['cardNumber', '4012001037141112'],
            ['action', 'pay'],
          ]).catch(() => undefined);
          if (back?.status === 303) return true;
        }
        if (Date.now() > giveUpAt) throw e;
        await sleep(1000);
      }
    }
  }
  interface Patience {
    /** How long the payer and the merchant keep retrying (90 s: a worker's bank request retried after its timeout). */
    patienceMs?: number;
    /** Each failed attempt's error (a refusal, a 5xx, a lost answer), for the report. */
    failures?: string[];
    /**
     * The merchant resends an order answered with a 5xx even when the gateway holds it (else it is
     * taken as created and its answer lost: no payer is shown it).
     */
    resendOn5xx?: boolean;
  }
  /** The simulator's books (the bank's side), read on loopback as its operator, with its admin token. */
  const books = async () =>
    (await request(`${bankUrl}/admin/books?merchantIdentifier=${merchant.merchantIdentifier}`, { headers: adminAuth })).json as {
      payments: {
        request: { orderId?: string; txnId: string; amountPaise?: number };
        answer?: { redirect?: { url: string } };
        awaitingPayer?: boolean;
        committedAt: string | null;
      }[];
      refunds: { request: { refundId: string; txnId: string; amountPaise: number }; answer: { status: string } }[];
      notifications: { amountPaise: number; executeAt: string; answer: { notificationId: string; status: string } }[];
      debits: BankDebit[];
      totals: Record<string, number>;
    };

  describe('what listens where', () => {
    it('every socket the stack listens on is loopback, but the public TLS port (and its http redirect)', () => {
      const pids = descendants(Object.values(readState().processes).flatMap((p) => (p.pid ? [p.pid] : [])));
      const sockets = listeningSockets(pids);
      assert.ok(sockets.length >= 10, `found the stack's sockets: ${JSON.stringify(sockets)}`);
      const exposed = sockets.filter((s) => !s.loopback && !state.publicPorts.includes(s.port));
      assert.deepEqual(exposed, [], 'only the public ports bind beyond loopback');
      const publicBinds = sockets.filter((s) => !s.loopback).map((s) => s.port);
      assert.ok(publicBinds.includes(state.ports.https), 'the TLS port is public');
    });

    const p = state.ports;
    const candidates = [
      p.https,
      p.http,
      ...p.api,
      ...p.ops,
      p.bankSimulator,
      p.acquirer,
      p.merchantSite,
      p.merchantReceiver,
      p.codec,
      p.postgresql,
      p.store,
      p.temporal.frontend,
      p.temporal.frontendHttp,
      p.temporal.history,
      p.temporal.history2,
      p.temporal.matching,
      p.temporal.worker,
    ];

    // The public side: the machine's published addresses, on every machine; and, where the machine
    // lets us make one, a network namespace of our own (a second host's view over a veth pair).
    it("from the public side (the machine's published addresses; a network namespace where allowed), only Caddy answers", async () => {
      const addresses = publishedAddresses();
      assert.ok(addresses.length > 0, 'this machine has an address beyond loopback (else nothing is published)');
      for (const address of addresses) {
        const answered = (await Promise.all(candidates.map(async (port) => ((await connects(address, port)) ? port : 0)))).filter(
          Boolean,
        );
        assert.deepEqual(answered.sort(), [p.https, p.http].sort(), `answered at ${address}: ${answered.join(', ')}`);
        const health = await rawHttps(p.https, '/health', 'localhost', state.caddyRootCertificate, address);
        assert.equal(health.status, 200, `https://${address}:${p.https}/health: ${health.status} ${health.body.slice(0, 200)}`);
        for (const route of ['/ops/v1/merchants', '/metrics', '/sandbox/v1/time', '/docs']) {
          const res = await rawHttps(p.https, route, 'localhost', state.caddyRootCertificate, address);
          assert.equal(res.status, 404, `https://${address}:${p.https}${route}: ${res.status}`);
        }
      }
      const ns = publicSide();
      if (!ns) return;
      try {
        const answered = ns.probe(candidates);
        assert.deepEqual(answered.sort(), [p.https, p.http].sort(), `answered from the public side: ${answered.join(', ')}`);
        const health = ns.curl(`https://localhost:${p.https}/health`, state.caddyRootCertificate);
        assert.equal(health.status, 0, `https from the public side: ${health.stderr}`);
        assert.match(health.stdout, /200$/);
      } finally {
        ns.remove();
      }
    });
  });

  describe('the gateway runs as production, its bank the acquirer double', () => {
    /** A running process's environment, as /proc shows it to the user who started the stack. */
    const environOf = (name: string): Record<string, string> => {
      const pid = readState().processes[name]?.pid;
      assert.ok(pid, `no pid for ${name}`);
      return Object.fromEntries(
        readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
    };

    it("every API replica and worker runs with GATEWAY_ENV=production, the http connector, the acquirer double over https, the simulator's own secret", () => {
      for (const name of ['api-1', 'api-2', 'worker-1', 'worker-2']) {
        const env = environOf(name);
        assert.equal(env.GATEWAY_ENV, 'production', name);
        assert.equal(env.BANK_CONNECTOR, 'http', name);
        assert.equal(env.SANDBOX_ENABLED, undefined, `${name}: production's default (off), never set`);
        assert.equal(env.TIME_SKIPPING, undefined, name);
        assert.equal(env.BANK_BASE_URL, acquirerUrl, name);
        assert.equal(env.BANK_SECRET, secrets.BANK_SIMULATOR_SECRET, name);
      }
      const simulator = environOf('bank simulator');
      assert.equal(simulator.BANK_SECRET, undefined, 'the simulator never holds a BANK_SECRET');
      assert.equal(simulator.BANK_SIMULATOR_SECRET, secrets.BANK_SIMULATOR_SECRET);
      assert.notEqual(simulator.GATEWAY_ENV, 'production');
    });

    it("the simulator marks every answer on its own listener; the acquirer double forwards the signed protocol unmarked, and nothing of the simulator's admin", async () => {
      const own = await signedCall({
        secret: secrets.BANK_SIMULATOR_SECRET,
        method: 'GET',
        url: `${bankUrl}/v1/payments/probe-unknown`,
        timeoutMs: 10_000,
      });
      assert.equal(own.headers['x-bank-simulator'], 'sandbox', 'a production gateway pointed here refuses to start');
      const double = await signedCall({
        secret: secrets.BANK_SIMULATOR_SECRET,
        method: 'GET',
        url: `${acquirerUrl}/v1/payments/probe-unknown`,
        timeoutMs: 10_000,
      });
      assert.equal(double.status, own.status, 'the same answer to a signed inquiry');
      assert.equal(double.headers['x-bank-simulator'], undefined, 'unmarked: a production gateway accepts it');
      for (const route of ['/admin/books', '/ADMIN/books', '/admin/faults', '/openapi.json', '/health']) {
        const res = await request(`${acquirerUrl}${route}`, { headers: adminAuth });
        assert.equal(res.status, 404, `${route} through the acquirer double: ${res.status} ${res.text.slice(0, 200)}`);
      }
    });

    it("the simulator's admin routes (its own listener) take its admin token only", async () => {
      const url = `${bankUrl}/admin/books?merchantIdentifier=${merchant.merchantIdentifier}`;
      assert.equal((await request(url)).status, 401, 'no token');
      assert.equal(
        (await request(url, { headers: { authorization: `Bearer ${secrets.OPS_TOKEN}` } })).status,
        401,
        'another token',
      );
      const ok = await request(url, { headers: adminAuth });
      assert.equal(ok.status, 200, ok.text);
    });
  });

  describe('nothing of the sandbox in the production gateway', () => {
    /** Every route of src/api/sandbox (the sandbox payer, its QR, checkout return, mandates, time). */
    const sandboxRoutes = [
      ['GET', '/sandbox/v1/time'],
      ['POST', '/sandbox/v1/time/skip'],
      ['POST', '/sandbox/v1/payments'],
      ['POST', '/sandbox/v1/qr/pay'],
      ['POST', '/sandbox/v1/checkout/return'],
      ['POST', '/sandbox/v1/mandates/revoke'],
    ] as const;
    const listeners = () => [
      ['the public port', publicUrl],
      ...state.ports.api.map((port, i) => [`api-${i + 1}'s own listener`, `http://127.0.0.1:${port}`]),
      ...state.ports.ops.map((port, i) => [`api-${i + 1}'s operator listener`, `http://127.0.0.1:${port}`]),
    ];
    it('every /sandbox/v1 route answers 404 on the public port, on each replica behind Caddy, and on each operator listener (even with the break-glass token)', async () => {
      for (const [where, base] of listeners()) {
        for (const [method, route] of sandboxRoutes) {
          for (const headers of [{}, { authorization: `Bearer ${secrets.OPS_TOKEN}` }] as Record<string, string>[]) {
            const res = await request(`${base}${route}`, { method, headers, ...(method === 'POST' ? { body: {} } : {}) });
            assert.equal(res.status, 404, `${where}: ${method} ${route}: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
      }
    });
  });

  describe('the store', () => {
    const uri = (password: string) =>
      `mongodb://gateway:${password}@127.0.0.1:${state.ports.store}/?authMechanism=PLAIN&authSource=%24external`;
    async function reads(u: string): Promise<boolean> {
      const client = new MongoClient(u, { serverSelectionTimeoutMS: 5000 });
      try {
        await client.db('gateway').collection('merchants').findOne({});
        return true;
      } catch {
        return false;
      } finally {
        await client.close().catch(() => undefined);
      }
    }
    it("reads with the gateway's password only: a wrong one or none gets nothing", async () => {
      assert.equal(await reads(uri(secrets.STORE_PASSWORD)), true);
      assert.equal(await reads(uri('not-the-password')), false, 'a wrong password');
      assert.equal(await reads(`mongodb://127.0.0.1:${state.ports.store}/`), false, 'no credentials');
    });
  });

  describe('the public port', () => {
    for (const [method, route] of [
      ['GET', '/metrics'],
      ['POST', '/sandbox/v1/payments'],
      ['GET', '/sandbox/v1/time'],
      ['POST', '/sandbox/v1/time/skip'],
    ] as const) {
      it(`${method} ${route} answers 404`, async () => {
        const res = await request(`${publicUrl}${route}`, { method, ...(method === 'POST' ? { body: {} } : {}) });
        assert.equal(res.status, 404, `${route}: ${res.status} ${res.text.slice(0, 200)}`);
      });
    }

    for (const host of ['acquirer.internal', 'bank-simulator:4100', `127.0.0.1:${state.ports.bankSimulator}`]) {
      it(`Host: ${host} does not reach the bank simulator's admin or pages`, async () => {
        for (const route of ['/admin/books', '/admin/faults', '/pages/pay/x', '/v1/payments/x']) {
          const res = await rawHttps(state.ports.https, route, host, state.caddyRootCertificate);
          assert.ok(
            !/"payments"|"faults"|No such payment/.test(res.body),
            `${host}${route} reached the simulator: ${res.body.slice(0, 200)}`,
          );
          assert.ok(
            res.status === 404 || res.status === 421 || res.status === 0 || res.status === 200,
            `${host}${route}: ${res.status}`,
          );
          if (res.status === 200) assert.doesNotMatch(res.body, /books|settle/i);
        }
      });
    }

    it('does not serve /docs (Swagger UI): production does not mount it; /openapi.json stays', async () => {
      assert.equal((await request(`${publicUrl}/docs`)).status, 404, 'production serves no API reference page');
      assert.equal((await request(`${publicUrl}/openapi.json`)).status, 200);
    });

    it('the operator API and the codec are not there, even with the break-glass token; /health answers', async () => {
      assert.equal((await request(`${publicUrl}/health`)).status, 200);
      const auth = { authorization: `Bearer ${secrets.OPS_TOKEN}` };
      assert.equal((await request(`${publicUrl}/ops/v1/merchants`, { body: { name: 'x' }, headers: auth })).status, 404);
    });
  });

  describe('money through Caddy', () => {
    let paidOrder: string;

    it("a payment: hosted checkout paid by card on the bank's page, the bank (simulator) calling back through Caddy", async () => {
      paidOrder = newOrderId('prod');
      await payThroughCaddy(paidOrder);
      const order = await finalStatus(paidOrder);
      assert.equal(order.txnStatus, '0', JSON.stringify(order));
      const b = await books();
      assert.equal(b.payments.filter((p) => p.request.txnId === order.orderDetail.txnId).length, 1, 'the bank holds it once');
    });

    it("a webhook: the merchant's receiver hears of the payment", async () => {
      const deadline = Date.now() + 60_000;
      while (!receiver.calls.some((c) => c.body.includes(paidOrder))) {
        if (Date.now() > deadline) throw new Error(`no webhook for ${paidOrder}: ${receiver.calls.length} calls`);
        await sleep(250);
      }
    });

    it('a refund: /updateTxn through Caddy, settled by the bank', async () => {
      const res = await refund(gw, merchant, { orderId: paidOrder, merchantRefId: 'prod-refund-1' });
      assert.equal(res.status, 200, res.text);
      const deadline = Date.now() + 120_000;
      for (;;) {
        const order = await statusOf(paidOrder);
        const r = (order?.refundDetails ?? []).find((d: Record<string, string>) => d.merchantRefId === 'prod-refund-1');
        if (r && r.refundStatus !== 'PENDING' && r.refundStatus !== 'INITIATED') {
          assert.equal(r.amount, '25050', 'the whole payment');
          assert.match(r.refundStatus, /SUCCESS|PROCESSED|COMPLETED/i, JSON.stringify(r));
          break;
        }
        if (Date.now() > deadline) throw new Error(`refund not final: ${JSON.stringify(order?.refundDetails)}`);
        await sleep(500);
      }
    });

    it('a mandate notify: /transactU?v=13 through Caddy, refused inside a peak window (1118) and scheduled outside one (1109), the clock moved', async () => {
      const parent = newOrderId('prod-mandate');
      const created = await transactU(publicUrl, merchant, createData(merchant, { orderId: parent, today: new Date() }));
      assert.equal(created.json?.responseCode, '1101', created.text);
      const active = await finalStatus(parent);
      assert.equal(active.txnStatus, '0', `the bank approved the mandate: ${JSON.stringify(active)}`);
      // Whatever the hour of this run: the API's clock is moved into the next peak window (5 minutes
      // after it opens), then to 5 minutes after that window closes. Forward only, under a day. A run
      // inside a window starts its search where that window ends: 5 minutes after "now" may be past it.
      let inPeak = firstOffPeakInstant(new Date(Math.ceil(Date.now() / 60_000) * 60_000));
      while (!isInPeakWindow(inPeak)) inPeak = new Date(inPeak.getTime() + 60_000);
      inPeak = new Date(inPeak.getTime() + 5 * 60_000);
      const offPeak = new Date(firstOffPeakInstant(inPeak).getTime() + 5 * 60_000);
      assert.ok(
        isInPeakWindow(inPeak) && !isInPeakWindow(offPeak),
        `${inPeak.toISOString()} in a window, ${offPeak.toISOString()} after it`,
      );
      // Two IST days after the moved clock's, at 08:00 IST: more than 24 hours ahead, outside the peak windows.
      const executionDate = `${istDate(offPeak, 2)} 08:00:00`;
      const debit = newOrderId('prod-debit');
      try {
        await moveApiClock(state, inPeak);
        const refused = await transactU(publicUrl, merchant, notifyData(merchant, { orderId: debit, parent, executionDate }));
        assert.equal(refused.status, 200, refused.text);
        assert.equal(refused.json?.responseCode, '1118', `at ${inPeak.toISOString()}, in a peak window: ${refused.text}`);
        await moveApiClock(state, offPeak);
        const notified = await transactU(publicUrl, merchant, notifyData(merchant, { orderId: debit, parent, executionDate }));
        assert.equal(notified.status, 200, notified.text);
        assert.equal(notified.json?.responseCode, '1109', `at ${offPeak.toISOString()}, off peak: ${notified.text}`);
        debitsAccepted.push(debit);
      } finally {
        await moveApiClock(state, 'real');
      }
      assert.equal((await statusOf(debit))?.txnStatus, '2', 'the debit waits for its executionDate');
    });
  });

  describe('processes killed while money moves', () => {
    /** Orders proven paid (and not refunded) earlier: the merchant refunds some of them during each kill. */
    const refundable: string[] = [];
    /** Every order of these probes, and those a payer paid: the webhooks the merchant hears must name one of the latter. */
    const mine = new Set<string>();
    const paidOrders = new Set<string>();
    /**
     * `k` orders paid earlier, taken from those not refunded yet: an earlier burst's (so a probe that
     * failed before its burst's orders were proven paid does not starve the next), else paid now.
     */
    async function paidEarlier(k: number): Promise<string[]> {
      const orders = Array.from({ length: Math.max(0, k - refundable.length) }, () => newOrderId('refundable'));
      orders.forEach((o) => mine.add(o));
      await Promise.all(orders.map((o) => payThroughCaddy(o, '10000')));
      for (const o of orders) assert.equal((await finalStatus(o)).txnStatus, '0', `${o} paid before the kill`);
      orders.forEach((o) => (refundable.push(o), paidOrders.add(o)));
      return refundable.splice(0, k);
    }

    /**
     * What a burst takes before its payers start (orders paid earlier to refund, the mandate), made
     * ahead: a probe that times its kill against debits falling due starts its burst a few seconds
     * before, and a loaded machine paying these first would bring the kill after the debits.
     */
    async function readyForBurst(): Promise<void> {
      refundable.unshift(...(await paidEarlier(3)));
      await activeMandate();
    }

    /** The merchant's approved mandate the bursts notify debits under: made once (again on the next burst if making it failed). */
    let mandate: Promise<string> | undefined;
    function activeMandate(): Promise<string> {
      mandate ??= (async () => {
        const parent = newOrderId('kill-mandate');
        const created = await transactU(publicUrl, merchant, createData(merchant, { orderId: parent, today: new Date() }));
        assert.equal(created.json?.responseCode, '1101', created.text);
        const active = await finalStatus(parent);
        assert.equal(active.txnStatus, '0', `the bank approved the mandate: ${JSON.stringify(active)}`);
        return parent;
      })().catch((e: Error) => {
        mandate = undefined;
        throw e;
      });
      return mandate;
    }
    /** Each notify of the kill probes asks its own amount (paise), so the bank's notifications tell them apart. */
    let lastNotifyAmount = 20_000;
    /**
     * `k` debits to notify under the mandate, each two IST days ahead at 08:00 (more than 24 hours
     * ahead, outside the peak windows, long after the probes end: none executes meanwhile). Each
     * notify's body is made once, so a resend is the same request.
     */
    async function debitsToNotify(k: number) {
      const parent = await activeMandate();
      const executionDate = `${istDate(new Date(), 2)} 08:00:00`;
      return Array.from({ length: k }, () => {
        const orderId = newOrderId('kill-debit');
        const amountPaise = ++lastNotifyAmount;
        const data = notifyData(merchant, { orderId, parent, executionDate, amount: String(amountPaise) });
        return { orderId, amountPaise, send: () => transactU(publicUrl, merchant, data) };
      });
    }

    /**
     * Payers paying, four at a time, while `during` kills something; beside them, from just before
     * the kill, the merchant refunds three orders paid earlier, one after another, and notifies two
     * or three debits under its mandate, one after another (in each lane the first as the kill
     * comes, the others as the payers finish their orders). `paid`: the orders whose payers paid;
     * `unanswered`: orders the gateway created whose answer the merchant never got (no payer was
     * shown them); `refunds` and `notifies`: what the merchant asked and the answers it got.
     */
    async function burst(
      n: number,
      during: () => Promise<void>,
      o: Patience = {},
    ): Promise<{ paid: string[]; unanswered: string[]; refunds: RefundAsked[]; notifies: NotifyAsked[] }> {
      const concurrency = 4;
      const orders = Array.from({ length: n }, () => newOrderId('burst'));
      orders.forEach((id) => mine.add(id));
      const toRefund = await paidEarlier(3);
      const toNotify = await debitsToNotify(n >= 12 ? 3 : 2);
      const paid: string[] = [];
      const unanswered: string[] = [];
      let next = 0;
      const lanes = Array.from({ length: concurrency }, async () => {
        while (next < orders.length) {
          const orderId = orders[next++]!;
          if (await payThroughCaddy(orderId, '10000', o)) paid.push(orderId);
          else unanswered.push(orderId);
        }
      });
      // The kill comes once the first payer is through: the others are still paying.
      await until(() => paid.length + unanswered.length > 0, Date.now() + 180_000);
      const refunding = refundLane(
        toRefund,
        (orderId, merchantRefId) => refund(gw, merchant, { orderId, merchantRefId }),
        // The first as the kill comes, the others as the payers finish their orders: across the outage.
        { patienceMs: o.patienceMs ?? 90_000, due: (i) => paid.length + unanswered.length >= (i * n) / toRefund.length },
      );
      const notifying = notifyLane(toNotify, {
        patienceMs: o.patienceMs ?? 90_000,
        due: (i) => paid.length + unanswered.length >= (i * n) / toNotify.length,
      });
      const doneBeforeKill = paid.length + unanswered.length;
      await during();
      assert.ok(doneBeforeKill < n, `the kill came while payers were paying (${doneBeforeKill} of ${n} done before it)`);
      await Promise.all(lanes);
      const refunds = await refunding;
      const notifies = await notifying;
      debitsAccepted.push(...notifies.filter((x) => x.code === '1109').map((x) => x.orderId));
      assert.ok(paid.length >= n - concurrency, `most payers paid (${paid.length} of ${n})`);
      paid.forEach((id) => paidOrders.add(id));
      return { paid, unanswered, refunds, notifies };
    }
    async function nothingLost(orders: string[]): Promise<void> {
      const finals = await Promise.all(orders.map((o) => finalStatus(o, 180_000)));
      assert.deepEqual(
        finals.map((o) => o.txnStatus),
        orders.map(() => '0'),
        'every order is paid',
      );
      const b = await books();
      for (const o of finals) {
        const settled = b.payments.filter((p) => p.request.orderId === o.orderDetail.orderId && p.committedAt);
        assert.equal(settled.length, 1, `${o.orderDetail.orderId} paid once at the bank`);
        assert.equal(settled[0]!.request.txnId, o.orderDetail.txnId, 'the payment the gateway reports is the one the bank holds');
      }
    }
    const kill = (name: string, signal: NodeJS.Signals = 'SIGKILL') => {
      const pid = readState().processes[name]?.pid;
      assert.ok(pid, `no pid for ${name}`);
      process.kill(pid, signal);
      return pid;
    };
    /** An order no payer was shown: the bank holds no payment of it, and the gateway does not call it paid. */
    async function neverCharged(orders: string[]): Promise<void> {
      const b = await books();
      for (const orderId of orders) {
        const atBank = b.payments.filter((p) => p.request.orderId === orderId && p.committedAt);
        assert.equal(atBank.length, 0, `${orderId}: its answer was lost, yet the bank holds a payment`);
        assert.notEqual((await statusOf(orderId))?.txnStatus, '0', `${orderId}: its answer was lost, yet it is paid`);
      }
    }
    /**
     * Every refund asked during the kill was accepted (a resend after a 5xx, with the same
     * merchantRefId, answered as the first: 230), is settled at the gateway, and the bank holds it
     * once: one refund of the payment, under the gateway's id for it, approved, of its amount.
     */
    async function refundsSettled(asked: RefundAsked[]): Promise<void> {
      const refused = asked.filter((r) => !r.accepted).map((r) => `${r.orderId}: ${r.answers.join(' -> ')}`);
      assert.deepEqual(
        refused,
        [],
        'every refund is accepted; one resent after a 5xx with the same merchantRefId is the same refund (230)',
      );
      console.error(`      refunds answered: ${asked.map((r) => r.answers.join(' -> ')).join('; ')}`);
      for (const r of asked) {
        const deadline = Date.now() + 180_000;
        for (;;) {
          const order = await statusOf(r.orderId).catch(() => undefined);
          const d = (order?.refundDetails ?? []).find((x: Record<string, string>) => x.merchantRefId === r.merchantRefId);
          if (d && d.refundStatus !== 'PENDING' && d.refundStatus !== 'INITIATED') {
            assert.match(d.refundStatus, /SUCCESS|PROCESSED|COMPLETED/i, `${r.orderId}: ${JSON.stringify(d)}`);
            assert.equal(d.amount, '10000', `${r.orderId}: the whole payment`);
            assert.equal(
              order!.refundDetails.length,
              1,
              `${r.orderId}: one refund at the gateway: ${JSON.stringify(order!.refundDetails)}`,
            );
            const atBank = (await books()).refunds.filter((x) => x.request.txnId === order!.orderDetail.txnId);
            assert.deepEqual(
              atBank.map((x) => [x.request.refundId, x.request.amountPaise, x.answer.status]),
              [[`${order!.orderDetail.txnId}:${r.merchantRefId}`, 10000, 'APPROVED']],
              `${r.orderId}: refunded once at the bank (answers the merchant got: ${r.answers.join(' -> ')})`,
            );
            break;
          }
          if (Date.now() > deadline)
            throw new Error(`${r.orderId}: refund not final after 180 s: ${JSON.stringify(order?.refundDetails)}`);
          await sleep(500);
        }
      }
    }
    /**
     * Every debit notified during the kill got a final answer: `1109` (scheduled), or `1118` when the
     * real clock was in a peak window (the API refuses it there before it stores or asks anything).
     * A scheduled one is Pending at the gateway (its executionDate days ahead), one order however
     * many times it was resent, notified to the bank once as that order's txnId, and not debited; a
     * refused one the gateway does not know and the bank was never told of.
     */
    async function notifiesSettled(asked: NotifyAsked[]): Promise<void> {
      console.error(
        `      notifies answered: ${asked.map((n) => `${n.answers.join(' -> ')}${n.peakAtSend ? ' (in a peak window)' : ''}`).join('; ')}`,
      );
      const b = await books();
      for (const n of asked) {
        const how = `${n.orderId}: answers ${n.answers.join(' -> ')}`;
        const res = await checkStatus(publicUrl, merchant.secretKey, {
          merchantIdentifier: merchant.merchantIdentifier,
          orderId: n.orderId,
        });
        assert.equal(res.status, 200, `${how}; status: ${res.text.slice(0, 200)}`);
        const orders = (res.json?.data?.orders ?? []) as Record<string, any>[];
        const notices = b.notifications.filter((x) => x.amountPaise === n.amountPaise);
        if (n.code === '1118') {
          assert.ok(n.peakAtSend || n.peakAtAnswer, `${how}: refused for peak time outside a peak window`);
          assert.deepEqual(orders, [], `${how}: refused, yet the gateway holds the debit`);
          assert.deepEqual(notices, [], `${how}: refused, yet the bank was notified`);
          continue;
        }
        assert.equal(n.code, '1109', `${how}: the notify is scheduled (1109) or refused in a peak window (1118)`);
        assert.ok(
          n.offPeakAtFirstSend || !n.peakAtSend || !n.peakAtAnswer,
          `${how}: scheduled, yet every attempt was sent inside a peak window`,
        );
        assert.equal(orders.length, 1, `${how}: one debit at the gateway: ${JSON.stringify(orders)}`);
        const debit = orders[0]!;
        assert.equal(debit.txnStatus, '2', `${how}: the debit waits for its executionDate: ${JSON.stringify(debit)}`);
        const txnId = debit.orderDetail?.txnId as string;
        assert.deepEqual(
          notices.map((x) => [x.answer.notificationId, x.answer.status]),
          [[txnId, 'ACCEPTED']],
          `${how}: notified to the bank once, as the debit the gateway holds`,
        );
        const executed = b.debits.filter((d) => d.request.debitId.startsWith(txnId));
        assert.deepEqual(executed, [], `${how}: the bank holds no debit of it (it executes days later)`);
      }
    }
    /**
     * The merchant's receiver hears of every paid order (its real-time webhook, code 100) and of
     * every accepted refund. Webhooks are retried after 5 s, then 5 minutes (WEBHOOK_RETRY_SCHEDULE's
     * default): an attempt lost to the kill is heard within about 6 minutes. Delivery is at least
     * once, so an order heard twice is allowed; one heard of as paid that no payer paid is not.
     */
    async function webhooksHeard(paid: string[], refunds: RefundAsked[]): Promise<void> {
      const deadline = Date.now() + 420_000;
      for (;;) {
        const h = heard(receiver.calls);
        const unheard = paid.filter((o) => !h.payments.some((p) => p.orderId === o && p.responseCode === '100'));
        const refundsUnheard = refunds.filter((r) => r.accepted && !h.refunds.includes(r.merchantRefId));
        if (unheard.length === 0 && refundsUnheard.length === 0) break;
        if (Date.now() > deadline)
          throw new Error(
            `after 420 s the merchant has not heard of paid orders ${unheard.join(', ') || 'none'}, refunds ${refundsUnheard.map((r) => r.merchantRefId).join(', ') || 'none'}`,
          );
        await sleep(1000);
      }
      const ours = heard(receiver.calls).payments.filter((p) => mine.has(p.orderId));
      const b = await books();
      for (const p of ours) {
        // A checkout no payer finished expires (183) and is heard of as failed; the final check holds
        // each webhook to its order's final code.
        if (!paidOrders.has(p.orderId) && p.responseCode !== '100') continue;
        assert.ok(
          paidOrders.has(p.orderId) && p.responseCode === '100',
          `a webhook of ${p.orderId} (${p.responseCode}), which no payer paid (an order heard more than once is allowed: delivery is at least once; one never paid is not)`,
        );
        const atBank = b.payments.filter((x) => x.request.orderId === p.orderId && x.committedAt);
        assert.deepEqual(
          atBank.map((x) => x.request.txnId),
          [p.pgTransId],
          `${p.orderId}: every webhook of it (at least once, duplicates allowed) names the one payment the bank holds`,
        );
      }
      const twice = paid.filter((o) => ours.filter((p) => p.orderId === o).length > 1);
      console.error(
        `      webhooks: ${paid.length} paid orders heard of, ${twice.length} of them more than once (allowed: delivery is at least once); ${refunds.filter((r) => r.accepted).length} refunds heard of`,
      );
    }
    const restartCounts = () => Object.fromEntries(Object.entries(readState().processes).map(([n, p]) => [n, p.restarts]));
    async function restarted(name: string, oldPid: number): Promise<void> {
      const deadline = Date.now() + 180_000;
      while (readState().processes[name]?.pid === oldPid) {
        if (Date.now() > deadline) throw new Error(`${name} was not started again`);
        await sleep(500);
      }
    }

    /** A checkout its payer never opened (made before the first kill): the final check sees it expire. */
    let abandoned: string | undefined;

    it('a worker and an API replica killed (SIGKILL) mid-burst lose nothing', async () => {
      abandoned = newOrderId('abandoned');
      mine.add(abandoned);
      const made = await postTransactU(
        gw,
        merchant.secretKey,
        v8Data(merchant, abandoned, { returnUrl: 'https://merchant.example/return' }),
        { browser: true },
      );
      assert.equal(made.status, 303, `the abandoned checkout was made: ${made.text.slice(0, 200)}`);
      const killed: [string, number][] = [];
      const {
        paid: orders,
        unanswered,
        refunds,
        notifies,
      } = await burst(16, async () => {
        killed.push(['worker-1', kill('worker-1')]);
        killed.push(['api-1', kill('api-1')]);
      });
      await nothingLost(orders);
      await neverCharged(unanswered);
      refundable.push(...orders);
      for (const [name, pid] of killed) await restarted(name, pid);
      await refundsSettled(refunds);
      await notifiesSettled(notifies);
      await webhooksHeard(orders, refunds);
    }).timeout(900_000);

    /**
     * Debits of the kill probes' mandate notified (the API's clock a day back) to fall due at the
     * instants `offsetsMs` after `at`, of amounts from `firstAmount` up; none when a peak window
     * would refuse or delay them (the probe then says so). The final check covers them.
     */
    async function debitsFallingDue(at: number, offsetsMs: number[], firstAmount: number): Promise<DueDebit[]> {
      const dueAt = offsetsMs.map((ms) => new Date(at + ms));
      if (!debitsCanFallDue(dueAt[0]!, dueAt.at(-1)!)) {
        console.error('      (a peak window: no mandate debit can fall due during this kill; its debit test is pending)');
        return [];
      }
      const due = await notifyDebitsDue({ state, publicUrl, merchant, parent: await activeMandate(), dueAt, firstAmount });
      debitsAccepted.push(...due.map((d) => d.orderId));
      return due;
    }
    const debitsOfKills = new DebitsOfKills();
    /** The debits that fell due during a kill executed once each and were heard of; they join the final check's timed debits. */
    async function debitsSettled(due: DueDebit[], killedAt: number, sentAgain: string[] = []): Promise<void> {
      if (due.length === 0) return;
      const calls = receiver.calls;
      const lines = await debitsExecutedOnce({ debits: due, books, statusOf, calls, patienceMs: 420_000, sentAgain });
      for (const d of due) debitsSeenAtBank.set(d.txnId, d.seenAtBank!);
      const when = (d: DueDebit) => ((d.executeAt.getTime() - killedAt) / 1000).toFixed(1);
      console.error(`      debits due ${due.map(when).join(', ')} s from the kill: ${lines.join('; ')}`);
    }

    /**
     * Kills (SIGKILL) and holds down the worker running the bank request of one of `debits` (the
     * one running most of them), found within 3 s; worker-1 if none is found. Returns the worker,
     * its pid, the debits it held and what lets the stack start it again.
     */
    async function killWorkerAtBank(debits: DueDebit[]) {
      const temporal = await connectStackTemporal(state, secrets);
      try {
        const workers = () => ({
          'worker-1': readState().processes['worker-1']?.pid,
          'worker-2': readState().processes['worker-2']?.pid,
        });
        const ids = debits.map((d) => d.orderId);
        const atBank = ids.length ? await workerAtBank(temporal, merchant.merchantIdentifier, ids, workers, 3_000) : undefined;
        const worker = atBank?.worker ?? 'worker-1';
        const { pid, release } = killHeldDown(state, worker, () => kill(worker));
        return { worker, killedAt: Date.now(), pid, held: atBank?.orderIds ?? [], release };
      } finally {
        await temporal.connection.close();
      }
    }

    // A mandate debit executing as a worker dies: debits fall due a second before the kill (the
    // bank answering each 3 s late), and the worker running the bank request of one of them is
    // killed while that request waits for its answer; more fall due in the seconds after. The
    // killed worker stays down until every debit is at the bank: the other runs them, and sends the
    // killed worker's again once its activity's 30 s start-to-close timeout expires. Each must reach
    // the bank once, however many times it was sent, and be heard of.
    it("the worker running a mandate debit's bank request killed (SIGKILL) mid-burst, and kept down until every debit falling due is at the bank, loses nothing (its debits: the next test)", async () => {
      await readyForBurst();
      const at = Math.ceil((Date.now() + 45_000) / 1000) * 1000;
      const due = await debitsFallingDue(at, [-1_000, -1_000, -1_000, -1_000, 2_000, 5_000, 9_000], 31_000);
      const slow = await slowBankDebits(bankUrl, secrets.BANK_SIMULATOR_ADMIN_TOKEN, merchant.merchantIdentifier, 3_000);
      let killed: Awaited<ReturnType<typeof killWorkerAtBank>> | undefined;
      let burstDone: Awaited<ReturnType<typeof burst>>;
      try {
        const seen = debitsAtBank(due, books, 180_000);
        await sleepUntil(at - 6_000);
        burstDone = await burst(8, async () => {
          await sleepUntil(at - 700);
          killed = await killWorkerAtBank(due.filter((d) => d.executeAt.getTime() < at));
        });
        await seen;
        assert.equal(
          readState().processes[killed!.worker]?.pid,
          killed!.pid,
          `${killed!.worker} stayed down while the debits ran`,
        );
      } finally {
        killed?.release();
        await slow();
      }
      const { worker, pid, killedAt, held } = killed!;
      debitsOfKills.set('worker', { due, killedAt, held });
      await restarted(worker, pid);
      console.error(
        `      ${worker}: killed holding the bank request of ${held.join(', ') || 'no debit'}, kept down ${((Date.now() - killedAt) / 1000).toFixed(1)} s, restarted`,
      );
      const { paid, unanswered, refunds, notifies } = burstDone!;
      await nothingLost(paid);
      await neverCharged(unanswered);
      refundable.push(...paid);
      await refundsSettled(refunds);
      await notifiesSettled(notifies);
      await webhooksHeard(paid, refunds);
    }).timeout(900_000);
    it('the debits falling due as that worker was killed: it held the bank request of one, at least 3 fell due while it was down, each was debited once and heard of', async function () {
      const { due, killedAt, held } = debitsOfKills.of(this, 'worker');
      assert.ok(held.length > 0, 'the killed worker was running the bank request of a debit');
      assert.ok(due.filter((d) => d.executeAt.getTime() > killedAt).length >= 3, 'debits fell due while the worker was down');
      await debitsSettled(due, killedAt, held);
    }).timeout(600_000);

    // The single server (npm run stack:production), or each process of the cluster (npm run
    // test:cluster): a history host, the matching service, the frontend, Temporal's own worker.
    const temporalProcesses = Object.keys(state.processes).filter((n) => /^temporal/i.test(n));
    for (const name of temporalProcesses)
      it(`${name} killed (SIGKILL) mid-burst and restarted loses nothing; the time until a payment made after the restart completed is reported`, async () => {
        let oldPid = 0;
        let killedAt = 0;
        const {
          paid: orders,
          unanswered,
          refunds,
          notifies,
        } = await burst(8, async () => {
          killedAt = Date.now();
          oldPid = kill(name, 'SIGKILL');
        });
        await restarted(name, oldPid);
        await nothingLost(orders);
        await neverCharged(unanswered);
        refundable.push(...orders);
        await refundsSettled(refunds);
        await notifiesSettled(notifies);
        // How long after the kill a payment made once the process was back (and the burst's payers
        // had finished) completed: an upper bound of the outage a payer saw.
        const orderId = newOrderId('after');
        mine.add(orderId);
        assert.ok(await payThroughCaddy(orderId, '10000'), 'a payment after the restart');
        assert.equal((await finalStatus(orderId)).txnStatus, '0');
        paidOrders.add(orderId);
        console.error(
          `      ${name}: killed, restarted; a new payment completed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`,
        );
        await webhooksHeard([...orders, orderId], refunds);
      }).timeout(900_000);

    /**
     * `k` payers paying new orders at once, from now on: resolves with the seconds after `since`
     * each order was final and paid (they join the orders whose webhooks must be heard).
     */
    async function paymentsFrom(since: number, k: number): Promise<{ orders: string[]; seconds: number[] }> {
      const orders = Array.from({ length: k }, () => newOrderId('after-kill'));
      orders.forEach((o) => mine.add(o));
      const seconds = await Promise.all(
        orders.map(async (orderId) => {
          assert.ok(await payThroughCaddy(orderId, '10000', { patienceMs: 240_000 }), `${orderId}: paid`);
          assert.equal((await finalStatus(orderId, 240_000)).txnStatus, '0', `${orderId}: final and paid`);
          paidOrders.add(orderId);
          return (Date.now() - since) / 1000;
        }),
      );
      return { orders, seconds };
    }

    // A history host lost for a while (npm run test:cluster): temporal-history-1 killed mid-burst
    // and kept down, debits of the mandate falling due in the seconds after. Its shards move to
    // temporal-history-2 once membership sees it gone; payments started after the kill must complete
    // there, and the debits reach the bank, before it is started again. Started again, it takes
    // shards back. The time until payments made after the kill completed is reported.
    if (state.cluster)
      it('temporal-history-1 killed (SIGKILL) mid-burst and kept down: payments made after the kill complete on temporal-history-2, nothing is lost (its debits: the next test); restarted, it takes shards again', async () => {
        const [host, survivor] = ['temporal-history-1', 'temporal-history-2'];
        const [hostLog, survivorLog] = [shardLog(state, host), shardLog(state, survivor)];
        await readyForBurst();
        const at = Math.ceil((Date.now() + 45_000) / 1000) * 1000;
        const due = await debitsFallingDue(at, [1_000, 3_000, 6_000, 10_000], 32_000);
        const release = holdDown(state, host);
        let [oldPid, killedAt, from, releasedAt] = [0, 0, 0, 0];
        let after: Promise<{ orders: string[]; seconds: number[] }> | undefined;
        let onMoved: { orders: string[]; seconds: number[] } = { orders: [], seconds: [] };
        let burstDone: Awaited<ReturnType<typeof burst>>;
        try {
          const seen = debitsAtBank(due, books, 300_000);
          await sleepUntil(at - 6_000);
          const survivorPid = readState().processes[survivor]?.pid;
          burstDone = await burst(8, async () => {
            await sleepUntil(at);
            from = survivorLog.mark();
            killedAt = Date.now();
            oldPid = kill(host);
            after = paymentsFrom(killedAt, 4);
          });
          const { seconds } = await after!;
          await seen;
          // Membership sees the host gone about 5 s after the kill. When no debit fell due (a peak
          // window) and the payments after the kill all hashed to the survivor's own shards, all of
          // the above can be done sooner: wait for the whole move rather than read the log once.
          const moved = await shardsAcquired(survivorLog, from, 1, 120_000, 3_000);
          assert.ok(moved.length > 0, `${survivor} acquired shards of ${host} (waited up to 120 s)`);
          assert.equal(readState().processes[survivor]?.pid, survivorPid, `${survivor} was not restarted meanwhile`);
          // Then payments served by the moved shards, the host still down: a logged acquisition is
          // not yet service. Six new orders all missing the moved half of the shards (and the four
          // above with them) has a chance under 1 in 1,000.
          onMoved = await paymentsFrom(Date.now(), 6);
          assert.equal(readState().processes[host]?.pid, oldPid, `${host} stayed down meanwhile`);
          const last = ((Math.max(...moved.map((m) => m.at)) - killedAt) / 1000).toFixed(1);
          console.error(
            `      ${host}: killed and kept down; ${survivor} acquired ${moved.length} shards (${moved.map((m) => m.shardId).join(', ')}), the last ${last} s after the kill; payments made after the kill completed ${Math.min(...seconds).toFixed(1)}-${Math.max(...seconds).toFixed(1)} s after it; ${onMoved.orders.length} made after the move completed in ${onMoved.seconds.map((x) => x.toFixed(1)).join(', ')} s`,
          );
        } finally {
          from = hostLog.mark();
          releasedAt = Date.now();
          release();
        }
        debitsOfKills.set('temporal-history-1', { due, killedAt, held: [] });
        await restarted(host, oldPid);
        const back = await shardsAcquired(hostLog, from, 1, 120_000);
        assert.ok(back.length > 0, `${host}, restarted, acquired shards again`);
        const again = await paymentsFrom(Date.now(), 2);
        console.error(
          `      ${host}: kept down ${((releasedAt - killedAt) / 1000).toFixed(1)} s; restarted, acquired ${back.length} shards (${back.map((m) => m.shardId).join(', ')}); payments made then completed in ${again.seconds.map((x) => x.toFixed(1)).join(', ')} s`,
        );
        const { paid, unanswered, refunds, notifies } = burstDone!;
        await nothingLost(paid);
        await neverCharged(unanswered);
        refundable.push(...paid);
        await refundsSettled(refunds);
        await notifiesSettled(notifies);
        await webhooksHeard([...paid, ...(await after!).orders, ...onMoved.orders, ...again.orders], refunds);
      }).timeout(900_000);
    if (state.cluster)
      it('the debits falling due while temporal-history-1 was down were each debited once and heard of', async function () {
        const { due, killedAt } = debitsOfKills.of(this, 'temporal-history-1');
        assert.ok(killedAt > 0, 'temporal-history-1 was killed');
        assert.ok(
          due.filter((d) => d.executeAt.getTime() > killedAt).length >= 3,
          'debits fell due while temporal-history-1 was down (the kill came before most of them)',
        );
        await debitsSettled(due, killedAt);
      }).timeout(600_000);

    // The store (npm run test:cluster): FerretDB, then PostgreSQL, which holds Temporal's databases
    // and FerretDB's. While it is down the gateway can neither record nor read a payment and Temporal
    // cannot move one: requests fail (a 5xx, a refused connection), and the merchant sends the order
    // again and the payer opens the checkout again, for up to 4 minutes. What must hold once the
    // stack has restarted it: every payer who paid has an order paid once at the bank and final at
    // the gateway, and no order whose answer was lost was charged.
    if (state.cluster)
      for (const name of ['ferretdb', 'postgresql'])
        it(`${name} killed (SIGKILL) mid-burst and restarted on its data loses nothing, doubles nothing, charges no unanswered order; the time until a payment made after the restart completed is reported`, async () => {
          const before = restartCounts();
          const failures: string[] = [];
          let oldPid = 0;
          let killedAt = 0;
          const patience = { patienceMs: 240_000, failures, resendOn5xx: true };
          const { paid, unanswered, refunds, notifies } = await burst(
            8,
            async () => {
              killedAt = Date.now();
              oldPid = kill(name, 'SIGKILL');
            },
            patience,
          );
          await restarted(name, oldPid);
          await nothingLost(paid);
          refundable.push(...paid);
          await neverCharged(unanswered);
          await refundsSettled(refunds);
          await notifiesSettled(notifies);
          const orderId = newOrderId('after');
          mine.add(orderId);
          assert.ok(await payThroughCaddy(orderId, '10000', patience), 'a payment after the restart');
          assert.equal((await finalStatus(orderId)).txnStatus, '0');
          paidOrders.add(orderId);
          const seconds = ((Date.now() - killedAt) / 1000).toFixed(1);
          const after = restartCounts();
          assert.equal(after[name], (before[name] ?? 0) + 1, `stack.json counts ${name}'s restart`);
          const alsoRestarted = Object.keys(after).filter((n) => n !== name && after[n]! > (before[n] ?? 0));
          console.error(
            `      ${name}: killed, restarted; a new payment completed ${seconds} s after the kill; ${paid.length} paid, ${unanswered.length} unanswered; ${failures.length} failed attempts retried${failures.length ? ` (first: ${failures[0]})` : ''}; also restarted: ${alsoRestarted.join(', ') || 'none'}`,
          );
          await webhooksHeard([...paid, orderId], refunds);
        }).timeout(900_000);

    // Last, whatever the probes above found: the money model's invariants over everything every
    // probe ran (final-check.ts), and every workflow of the namespace ended or waiting by design.
    it("after the kill probes, the money model's invariants hold over every order, refund, debit and webhook they made, and no workflow of the namespace failed, failed a task or is stuck", async () => {
      const probe = await openProbeScope(state, secrets, {
        merchant,
        calls: receiver.calls,
        debitsAccepted,
        debitsSeenAtBank,
      });
      try {
        await finalCheck({
          probe,
          books: async () => (await books()) as unknown as BooksRead,
          // A webhook attempt lost to a kill is retried 5 minutes on.
          patienceMs: 420_000,
          log: (line) => console.error(`      ${line}`),
        });
      } finally {
        await probe.close();
      }
      // The stack's checkouts expire in 3 minutes (stack-process.ts): the one no payer opened has, as a Failure the merchant reads.
      assert.ok(abandoned, 'the first kill probe made the checkout no payer opens');
      const expired = await finalStatus(abandoned, 240_000);
      assert.equal(expired.txnStatus, '1', `the abandoned checkout expired: ${JSON.stringify(expired)}`);
      assert.equal(expired.responseCode, '183', `the abandoned checkout expired as 183: ${JSON.stringify(expired)}`);
      console.error(`      the abandoned checkout ${abandoned} expired: ${expired.responseCode} ${expired.responseDescription}`);
    }).timeout(900_000);
  });
});

// ---------------------------------------------------------------------------------------------

/** The processes and all their children (runuser's postgres, npm's node). */
function descendants(roots: number[]): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const out = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) if (out.has(ppid) && !out.has(pid)) (out.add(pid), (grew = true));
  }
  return [...out];
}

/** Listening TCP sockets of these processes: port and whether the address is loopback. */
function listeningSockets(pids: number[]): { pid: number; port: number; address: string; loopback: boolean }[] {
  const inodes = new Map<string, number>();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const link = (() => {
          try {
            return readlinkSync(`/proc/${pid}/fd/${fd}`);
          } catch {
            return '';
          }
        })();
        const m = /^socket:\[(\d+)\]$/.exec(link);
        if (m) inodes.set(m[1]!, pid);
      }
    } catch {
      // gone
    }
  }
  const out: { pid: number; port: number; address: string; loopback: boolean }[] = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A') continue; // 0A: LISTEN
      const pid = inodes.get(f[9]!);
      if (!pid) continue;
      const [hex, portHex] = f[1]!.split(':');
      const address = v6 ? ipv6(hex!) : ipv4(hex!);
      out.push({ pid, port: parseInt(portHex!, 16), address, loopback: /^127\.|^::1$|^::ffff:127\./.test(address) });
    }
  }
  return out;
}

const ipv4 = (hex: string) =>
  hex
    .match(/../g)!
    .reverse()
    .map((b) => parseInt(b, 16))
    .join('.');
function ipv6(hex: string): string {
  const words = (hex.match(/.{8}/g) ?? []).map((w) => w.match(/../g)!.reverse().join(''));
  const full = words
    .join('')
    .match(/.{4}/g)!
    .map((x) => parseInt(x, 16).toString(16));
  const text = full.join(':');
  if (/^0:0:0:0:0:ffff:/.test(text)) return `::ffff:${ipv4(hex.slice(24))}`;
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  return text;
}

/**
 * A network namespace of our own joined to this one by a veth pair: the "public side". Undefined
 * when this machine does not let us make one (then the socket check above stands alone).
 */
function publicSide():
  | {
      probe(ports: number[]): number[];
      curl(url: string, ca: string): { status: number | null; stdout: string; stderr: string };
      remove(): void;
    }
  | undefined {
  const name = `mgw-probe-${process.pid}`;
  const host = `mgwh${process.pid % 100000}`;
  const peer = `mgwp${process.pid % 100000}`;
  const hostIp = '10.203.113.1';
  const peerIp = '10.203.113.2';
  const ip = (...args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });
  const remove = () => {
    ip('netns', 'del', name);
    ip('link', 'del', host);
  };
  const steps = [
    ['netns', 'add', name],
    ['link', 'add', host, 'type', 'veth', 'peer', 'name', peer],
    ['link', 'set', peer, 'netns', name],
    ['addr', 'add', `${hostIp}/30`, 'dev', host],
    ['link', 'set', host, 'up'],
    ['netns', 'exec', name, 'ip', 'addr', 'add', `${peerIp}/30`, 'dev', peer],
    ['netns', 'exec', name, 'ip', 'link', 'set', peer, 'up'],
    ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up'],
  ];
  for (const s of steps) {
    const r = ip(...s);
    if (r.status !== 0) {
      console.error(`      (no network namespace here, the published addresses only: ip ${s.join(' ')}: ${r.stderr.trim()})`);
      remove();
      return undefined;
    }
  }
  return {
    probe(ports) {
      const script = `const net=require('net');Promise.all(${JSON.stringify(ports)}.map(p=>new Promise(r=>{const s=net.connect({host:'${hostIp}',port:p});s.setTimeout(2000,()=>{s.destroy();r(null)});s.once('connect',()=>{s.destroy();r(p)});s.once('error',()=>r(null))}))).then(a=>console.log(JSON.stringify(a.filter(Boolean))))`;
      const r = spawnSync('ip', ['netns', 'exec', name, process.execPath, '-e', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout) as number[];
    },
    curl(url, ca) {
      const port = new URL(url).port;
      return spawnSync(
        'ip',
        [
          'netns',
          'exec',
          name,
          'curl',
          '-sS',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code}',
          '--cacert',
          ca,
          '--resolve',
          `localhost:${port}:${hostIp}`,
          url,
        ],
        { encoding: 'utf8' },
      );
    },
    remove,
  };
}

/** The machine's addresses beyond loopback: where a port bound to every interface is published. */
function publishedAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal && !(a.family === 'IPv6' && a.address.toLowerCase().startsWith('fe80')))
    .map((a) => a.address);
}

/** Whether a TCP connection to address:port is accepted (within 2 s). */
function connects(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: address, port });
    s.setTimeout(2000, () => (s.destroy(), resolve(false)));
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** An https request to Caddy's public port with any Host header (SNI stays the public host), at any of its addresses. */
function rawHttps(
  port: number,
  route: string,
  host: string,
  ca: string,
  address = '127.0.0.1',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = https.request(
      { host: address, port, path: route, servername: 'localhost', headers: { host }, ca: readFileSync(ca) },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, body: e.message }));
    req.end();
  });
}
