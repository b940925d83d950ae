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
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { isInPeakWindow } from '../../src/domain/peak-windows';
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

const stateFile = process.env.PRODUCTION_STACK_STATE;
const readState = () => JSON.parse(readFileSync(stateFile!, 'utf8')) as StackState;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  /**
   * The checkout helpers need a base URL and the bank's address: here Caddy and the simulator's
   * loopback listener (the payer of these probes runs on this machine; a real acquirer's pages are public).
   */
  const bankUrl = `http://127.0.0.1:${state.ports.bankSimulator}`;
  const gw = { baseUrl: publicUrl, bank: { url: bankUrl } } as unknown as TestGateway;
  const adminAuth = { authorization: `Bearer ${secrets.BANK_SIMULATOR_ADMIN_TOKEN}` };
  /** The operator's side: an API replica's operator listener on loopback (never behind the public site). */
  const opsUrl = `http://127.0.0.1:${state.ports.ops[0]}`;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let merchant: MerchantCredentials;

  before(async () => {
    receiver = await startReceiver();
    const res = await request(`${opsUrl}/ops/v1/merchants`, {
      body: { name: 'Production Stack Chai', webhookUrl: receiver.url },
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
  async function payThroughCaddy(orderId: string, amount = '25050'): Promise<boolean> {
    const data = v8Data(merchant, orderId, { returnUrl: 'https://merchant.example/return', orderDetail: { amount } });
    let location: string | undefined;
    // A payer waits on the checkout's "processing" page as long as the gateway may take to reach the
    // bank after a worker died holding the bank request: Temporal retries that activity once its
    // 30 s start-to-close timeout expires (workflows/payment.ts), then the bank's page is offered.
    const giveUpAt = Date.now() + 90_000;
    for (;;) {
      try {
        if (!location) {
          const posted = await postTransactU(gw, merchant.secretKey, data, { browser: true });
          if (posted.status === 303) location = posted.location!;
          else if ((await statusOf(orderId))?.orderDetail)
            return false; // created, but its answer was lost
          else throw new Error(`transactU ${posted.status}: ${posted.text.slice(0, 200)}`);
        }
        const order = await statusOf(orderId);
        if (order?.txnStatus === '0') return true;
        await payOnCheckoutPage(gw, location, [['cardNumber', '4012001037141112']]);
        return true;
      } catch (e) {
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
  /** The simulator's books (the bank's side), read on loopback as its operator, with its admin token. */
  const books = async () =>
    (await request(`${bankUrl}/admin/books?merchantIdentifier=${merchant.merchantIdentifier}`, { headers: adminAuth })).json as {
      payments: {
        request: { orderId?: string; txnId: string; amountPaise?: number };
        answer?: { redirect?: { url: string } };
        awaitingPayer?: boolean;
        committedAt: string | null;
      }[];
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

    it('from another network namespace (the public side), only Caddy answers', function () {
      const ns = publicSide();
      if (!ns) return this.skip();
      try {
        const p = state.ports;
        const candidates = [
          p.https,
          p.http,
          ...p.api,
          ...p.ops,
          p.bankSimulator,
          p.codec,
          p.postgresql,
          p.store,
          p.temporal.frontend,
          p.temporal.frontendHttp,
          p.temporal.history,
          p.temporal.matching,
          p.temporal.worker,
        ];
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

  describe('the bank: the sandbox profile (production refuses the simulator)', () => {
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

    it("the gateway runs as staging, its bank the simulator on loopback, signed with the simulator's own secret", () => {
      for (const name of ['api-1', 'api-2', 'worker-1', 'worker-2']) {
        const env = environOf(name);
        assert.equal(env.GATEWAY_ENV, 'staging', name);
        assert.equal(env.SANDBOX_ENABLED, 'false', name);
        assert.equal(env.BANK_BASE_URL, bankUrl, name);
        assert.equal(env.BANK_SECRET, secrets.BANK_SIMULATOR_SECRET, name);
      }
      const simulator = environOf('bank simulator');
      assert.equal(simulator.BANK_SECRET, undefined, 'the simulator never holds a BANK_SECRET');
      assert.equal(simulator.BANK_SIMULATOR_SECRET, secrets.BANK_SIMULATOR_SECRET);
      assert.notEqual(simulator.GATEWAY_ENV, 'production');
    });

    it('its admin routes take its admin token, and every answer says it is the simulator', async () => {
      const url = `${bankUrl}/admin/books?merchantIdentifier=${merchant.merchantIdentifier}`;
      assert.equal((await request(url)).status, 401, 'no token');
      assert.equal(
        (await request(url, { headers: { authorization: `Bearer ${secrets.OPS_TOKEN}` } })).status,
        401,
        'another token',
      );
      const ok = await request(url, { headers: adminAuth });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.headers.get('x-bank-simulator'), 'sandbox', 'a production gateway refuses such answers');
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

    it('serves /docs (Swagger UI) because it runs as staging: production does not mount it, /openapi.json stays', async () => {
      assert.equal((await request(`${publicUrl}/docs`)).status, 200, 'staging serves the API reference page');
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

    it('a mandate notify: /transactU?v=13 through Caddy, the mandate approved by the bank, the debit scheduled (1109)', async () => {
      const parent = newOrderId('prod-mandate');
      const created = await transactU(publicUrl, merchant, createData(merchant, { orderId: parent, today: new Date() }));
      assert.equal(created.json?.responseCode, '1101', created.text);
      const active = await finalStatus(parent);
      assert.equal(active.txnStatus, '0', `the bank approved the mandate: ${JSON.stringify(active)}`);
      // The day after tomorrow at 08:00 IST: at least 24 hours ahead, outside the peak windows.
      const debit = newOrderId('prod-debit');
      const executionDate = `${istDate(new Date(), 2)} 08:00:00`;
      const notified = await transactU(publicUrl, merchant, notifyData(merchant, { orderId: debit, parent, executionDate }));
      assert.equal(notified.status, 200, notified.text);
      // The stack runs on the real clock: a notify sent inside a peak window is refused by design
      // (1118) after the gateway read and authenticated it through Caddy; outside one it is scheduled.
      if (isInPeakWindow(new Date())) {
        assert.equal(notified.json?.responseCode, '1118', notified.text);
        return;
      }
      assert.equal(notified.json?.responseCode, '1109', notified.text);
      assert.equal((await statusOf(debit))?.txnStatus, '2', 'the debit waits for its executionDate');
    });
  });

  describe('processes killed while money moves', () => {
    /** The orders whose payers paid (an order whose checkout address the merchant never got is left out). */
    async function burst(n: number, during: () => Promise<void>, concurrency = 4): Promise<string[]> {
      const orders = Array.from({ length: n }, () => newOrderId('burst'));
      const paid: string[] = [];
      let next = 0;
      const lanes = Array.from({ length: concurrency }, async () => {
        while (next < orders.length) {
          const orderId = orders[next++]!;
          if (await payThroughCaddy(orderId, '10000')) paid.push(orderId);
        }
      });
      await sleep(1500);
      await during();
      await Promise.all(lanes);
      assert.ok(paid.length >= n - concurrency, `most payers paid (${paid.length} of ${n})`);
      return paid;
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
    async function restarted(name: string, oldPid: number): Promise<void> {
      const deadline = Date.now() + 180_000;
      while (readState().processes[name]?.pid === oldPid) {
        if (Date.now() > deadline) throw new Error(`${name} was not started again`);
        await sleep(500);
      }
    }

    it('a worker and an API replica killed (SIGKILL) mid-burst lose nothing', async () => {
      const killed: [string, number][] = [];
      const orders = await burst(16, async () => {
        killed.push(['worker-1', kill('worker-1')]);
        killed.push(['api-1', kill('api-1')]);
      });
      await nothingLost(orders);
      for (const [name, pid] of killed) await restarted(name, pid);
    });

    it('a Temporal server restart loses nothing', async () => {
      let oldPid = 0;
      const orders = await burst(8, async () => {
        oldPid = kill('Temporal server', 'SIGKILL');
      });
      await restarted('Temporal server', oldPid);
      await nothingLost(orders);
    });
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
      console.log(`      (no network namespace here: ip ${s.join(' ')}: ${r.stderr.trim()})`);
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

/** An https request to Caddy's public port with any Host header (SNI stays the public host). */
function rawHttps(port: number, route: string, host: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = https.request(
      { host: '127.0.0.1', port, path: route, servername: 'localhost', headers: { host }, ca: readFileSync(ca) },
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
