import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canConnect, freePort } from '../../src/devstack/process';
import { projectRoot, temporalCliPath } from '../../src/devstack/paths';
import { codeBlocks, guideFiles } from '../support/doc-blocks';
import { awaitResultPage, openPage, postForm, returnFormOf, submitPageForm } from '../support/checkout';
import type { TestGateway } from '../support/gateway';
import { request } from '../support/http';

/**
 * `npm start` as a newcomer runs it (minus npm): the whole local stack on free ports in a fresh
 * DATA_DIR, the printed curl commands work as printed, and Ctrl-C (SIGINT to the process group)
 * leaves no server behind.
 */
describe('npm start: the local stack', function () {
  this.timeout(180_000);

  it('comes up, prints working curl commands, and stops every process on Ctrl-C', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-dev-'));
    const ports = { api: await freePort(), store: await freePort(), temporal: await freePort(), ui: await freePort() };
    const stack = await startDevStack(dataDir, ports).catch((e) => {
      rmSync(dataDir, { recursive: true, force: true });
      throw e;
    });
    try {
      assert.equal((await request(`http://127.0.0.1:${ports.ui}/`)).status, 200, 'Temporal UI is up');
      // Closed workflows are kept 7 days (temporal-config/namespace.yaml), not the dev server's 1-day default.
      const namespace = JSON.parse(
        execFileSync(
          temporalCliPath,
          [
            'operator',
            'namespace',
            'describe',
            '--address',
            `127.0.0.1:${ports.temporal}`,
            '--namespace',
            'default',
            '-o',
            'json',
          ],
          { encoding: 'utf8' },
        ),
      );
      assert.equal(namespace.config.workflowExecutionRetentionTtl, `${7 * 24 * 3600}s`);

      const curls = stack.curls;
      const { paid, order } = await payAsPrinted(stack);
      assert.equal(order.orderDetail.txnId, paid.json.data.txnId);
      const ledger = parseCurl(curls.find((c) => c.includes('/api/v1/ledger'))!);
      const page = await request(ledger.url, { body: ledger.body, headers: ledger.headers });
      assert.ok(
        page.json.data.transactions.some((t: { txnId: string }) => t.txnId === paid.json.data.txnId),
        page.text,
      );
      // The guides' shell variables as printed, with the guides' own helpers (docs/merchants/README.md).
      const exportLine = stack.output.split('\n').find((l) => l.trim().startsWith('export B='))!;
      const helpers = guideFiles()
        .flatMap(codeBlocks)
        .filter((b) => b.tags.includes('setup'))
        .map((b) => b.text);
      const script = [exportLine, ...helpers, 'status demo-order-1', 'test -s "$P" && echo public key in P'].join('\n');
      const [viaGuides, publicKey] = execFileSync('bash', ['-c', script], { encoding: 'utf8' }).trim().split('\n');
      assert.equal(JSON.parse(viaGuides!).data.orders[0].txnStatus, '0', viaGuides);
      assert.equal(publicKey, 'public key in P');
      // The mandate command runs as printed, in a shell: its --data-urlencode fields are the form.
      const mandateCurl = curls.find((c) => c.includes('/transactU'))!;
      const mandate = JSON.parse(execFileSync('bash', ['-c', mandateCurl], { encoding: 'utf8' }));
      assert.equal(mandate.responseCode, '1101', JSON.stringify(mandate));

      // The checkout line, as printed, in a shell: it prints the hosted page's address; paid there,
      // the signed result is posted to the sandbox's return page, which verifies it.
      const checkoutLine = stack.output
        .split('\n')
        .find((l) => l.trim().startsWith('data='))!
        .trim();
      const address = execFileSync('bash', ['-c', checkoutLine], { encoding: 'utf8' }).trim();
      assert.match(address, /^http:\/\/localhost:\d+\/checkout\/[A-Za-z0-9_-]{32}$/, address);
      const { origin, pathname } = new URL(address);
      const site = { baseUrl: origin } as TestGateway;
      const open = await openPage(site, pathname);
      assert.equal(open.status, 200);
      assert.match(open.html, /Demo checkout/);
      assert.equal((await submitPageForm(site, `${pathname}/pay`, open, [['payerVpa', 'success@sandbox']])).status, 303);
      const back = returnFormOf(await awaitResultPage(site, pathname));
      const returned = await postForm(back.action, back.fields, { browser: true });
      assert.match(returned.text, /checksum verified \(V8 return\)/);

      // The demo merchant's dashboard: the printed one-time link opens the form choosing the owner's password.
      const invitation = stack.output.match(/^\s+(http:\/\/localhost:\d+\/dashboard\/invitations\/\S+)$/m)?.[1];
      assert.ok(invitation, 'a dashboard invitation link is printed');
      const invitationPage = await request(invitation);
      assert.equal(invitationPage.status, 200);
      assert.match(invitationPage.text, /owner@demo\.example/);
    } finally {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    for (const [name, port] of Object.entries(ports))
      assert.equal(await canConnect('127.0.0.1', port), false, `${name} port still open`);
  });

  it('--time-skipping: the test server, a fresh store database per run, the same demo merchant, working skip commands', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-dev-ts-'));
    const ports = { api: await freePort(), store: await freePort(), temporal: await freePort(), ui: await freePort() };
    try {
      const first = await startDevStack(dataDir, ports, ['--time-skipping']);
      let secondOutput = '';
      try {
        assert.match(first.output, /time-skipping test server/);
        assert.equal(await canConnect('127.0.0.1', ports.ui), false, 'no Temporal UI on the test server');
        const pay = parseCurl(first.curls.find((c) => c.includes('/sandbox/v1/payments'))!);
        const status = parseCurl(first.curls.find((c) => c.includes('/api/payments/v1/status'))!);
        const silent = pay.body.replace('success@sandbox', 'noanswer@sandbox');
        assert.equal((await request(pay.url, { body: silent, headers: pay.headers })).status, 202);
        const [skipCurl] = first.curls.filter((c) => c.includes('/sandbox/v1/time/skip') && c.includes('"seconds":900'));
        const skip = parseCurl(skipCurl!);
        const skipped = await request(skip.url, { body: skip.body, headers: skip.headers });
        assert.equal(skipped.status, 200, skipped.text);
        const order = (await request(status.url, { body: status.body, headers: status.headers })).json.data.orders[0];
        assert.equal(
          order.txnStatus,
          '1',
          `the silent bank timed out in the skipped 15 minutes: ${skipped.text} ${JSON.stringify(order)}`,
        );
        assert.equal(order.responseCode, '183');
      } finally {
        await first.stop();
      }
      const second = await startDevStack(dataDir, ports, ['--time-skipping']);
      try {
        secondOutput = second.output;
        const status = parseCurl(second.curls.find((c) => c.includes('/api/payments/v1/status'))!);
        const again = await request(status.url, { body: status.body, headers: status.headers });
        assert.equal(again.json.message.code, 2020, 'a new run starts on an empty store database');
      } finally {
        await second.stop();
      }
      const id = (o: string) => /merchantIdentifier (\w+)/.exec(o)![1];
      assert.equal(id(secondOutput), id(first.output), 'the same demo merchant in every run');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    for (const [name, port] of Object.entries(ports))
      assert.equal(await canConnect('127.0.0.1', port), false, `${name} port still open`);
  });

  it('Temporal UI decodes through the loopback codec site, which adds the operator token and forwards only /encode and /decode', async () => {
    await withDevStack('codec', { codec: await freePort() }, [], async (stack, ports) => {
      const site = `http://127.0.0.1:${ports.codec}`;
      assert.match(stack.output, new RegExp(`Temporal UI at http://localhost:${ports.ui} \\(decoding through ${site}\\)`));
      const settings = await request(`http://127.0.0.1:${ports.ui}/api/v1/settings`);
      assert.equal(settings.json?.Codec?.Endpoint, site, `Temporal UI is configured with the codec site: ${settings.text}`);

      // As the UI's browser asks: a preflight, then POST {payloads} with its Origin and no token.
      const origin = `http://localhost:${ports.ui}`;
      const preflight = await request(`${site}/decode`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-namespace',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), origin);
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
      const plain = {
        metadata: { encoding: Buffer.from('json/plain').toString('base64') },
        data: Buffer.from('"ravi@okaxis"').toString('base64'),
      };
      const asUi = { origin, 'x-namespace': 'default' };
      const encoded = await request(`${site}/encode`, { body: { payloads: [plain] }, headers: asUi });
      assert.equal(encoded.status, 200, encoded.text);
      assert.ok(!Buffer.from(encoded.json.payloads[0].data, 'base64').toString().includes('ravi@okaxis'), 'sealed');
      const decoded = await request(`${site}/decode`, { body: encoded.json, headers: asUi });
      assert.equal(decoded.status, 200, decoded.text);
      assert.equal(decoded.headers.get('access-control-allow-origin'), origin);
      assert.deepEqual(decoded.json, { payloads: [plain] });
      // The API itself still wants the token: the site is what adds it.
      assert.equal((await request(`http://127.0.0.1:${ports.api}/ops/v1/codec/decode`, { body: encoded.json })).status, 401);

      // Nothing else goes through: other paths and methods stop at the site.
      for (const [method, p] of [
        ['GET', '/decode'],
        ['POST', '/ops/v1/codec/decode'],
        ['POST', '/ops/v1/webhooks/deliveries'],
        ['GET', '/health'],
      ] as const) {
        const res = await request(`${site}${p}`, { method, ...(method === 'POST' ? { body: encoded.json } : {}) });
        assert.equal(res.status, 404, `${method} ${p}`);
      }
    });
  });

  it('--bank=simulator: the bank simulator as its own process, the payment crossing the http connector into its books', async () => {
    await withDevStack('bank', { bank: await freePort() }, ['--bank=simulator'], async (stack, ports) => {
      assert.match(stack.output, new RegExp(`bank: the bank simulator at http://127.0.0.1:${ports.bank}`));
      const { pay, paid } = await payAsPrinted(stack);
      const tokenFile = /with the token in (\S+),/.exec(stack.output)?.[1];
      assert.ok(tokenFile, 'the admin token file is printed');
      const admin = readFileSync(tokenFile, 'utf8').trim();
      assert.equal((await request(`http://127.0.0.1:${ports.bank}/admin/books`)).status, 401, 'no admin token');
      const books = await request(`http://127.0.0.1:${ports.bank}/admin/books`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.deepEqual(
        books.json.payments.map((p: { request: { txnId: string } }) => p.request.txnId),
        [paid.json.data.txnId],
        'the bank holds the payment',
      );
      assert.equal(books.json.totals.paidPaise, Number(JSON.parse(pay.body).amount));
    });
  });
});

/** Pays with the printed sandbox curl and waits, through the printed status curl, for Success. */
async function payAsPrinted(stack: { curls: string[] }) {
  const pay = parseCurl(stack.curls.find((c) => c.includes('/sandbox/v1/payments'))!);
  const status = parseCurl(stack.curls.find((c) => c.includes('/api/payments/v1/status'))!);
  const paid = await request(pay.url, { body: pay.body, headers: pay.headers });
  assert.equal(paid.status, 202, paid.text);
  let order: any;
  await waitFor(
    async () => {
      order = (await request(status.url, { body: status.body, headers: status.headers })).json?.data?.orders?.[0];
      return order?.txnStatus === '0';
    },
    30_000,
    () => JSON.stringify(order),
  );
  return { pay, paid, order };
}

/**
 * `npm start [args]` on free ports (`extra` adds to api, store, temporal and ui) in a fresh DATA_DIR,
 * `check` run against it; afterwards Ctrl-C, and no port may stay open.
 */
async function withDevStack<P extends Record<string, number>>(
  name: string,
  extra: P,
  args: string[],
  check: (
    stack: Awaited<ReturnType<typeof startDevStack>>,
    ports: P & Record<'api' | 'store' | 'temporal' | 'ui', number>,
  ) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `gateway-dev-${name}-`));
  const ports = { api: await freePort(), store: await freePort(), temporal: await freePort(), ui: await freePort(), ...extra };
  try {
    const stack = await startDevStack(dataDir, ports, args);
    try {
      await check(stack, ports);
    } finally {
      await stack.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const [server, port] of Object.entries(ports))
    assert.equal(await canConnect('127.0.0.1', port), false, `${server} port still open`);
}

/** `npm start [args]` on the given ports and DATA_DIR, up to its "ready" line; `stop` is Ctrl-C. */
async function startDevStack(
  dataDir: string,
  ports: Record<'api' | 'store' | 'temporal' | 'ui', number> & { bank?: number; codec?: number },
  args: string[] = [],
) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/dev.ts', ...args], {
    cwd: projectRoot,
    detached: true, // its own process group, as a terminal's foreground job
    env: {
      ...process.env,
      MONGODB_URI: '',
      TEMPORAL_ADDRESS: '',
      GATEWAY_ENV: 'development',
      DATA_DIR: dataDir,
      API_PORT: String(ports.api),
      DEV_MONGODB_PORT: String(ports.store),
      DEV_TEMPORAL_PORT: String(ports.temporal),
      DEV_TEMPORAL_UI_PORT: String(ports.ui),
      DEV_TEMPORAL_UI_CODEC_PORT: String(ports.codec ?? (await freePort())),
      ...(ports.bank ? { DEV_BANK_SIMULATOR_PORT: String(ports.bank) } : {}),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  // The whole group, even when its leader has exited: the store and Temporal it started may outlive it.
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGINT');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
    }
    await exited;
  };
  try {
    await waitFor(
      () => {
        if (exitCode !== undefined) throw new Error(`npm start exited (${exitCode}) before it was ready:\n${output}`);
        return output.includes('ready. Ctrl-C stops every process.');
      },
      150_000,
      () => output,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return { output, curls: output.split('\n').filter((l) => l.trim().startsWith('curl ')), stop };
}

function parseCurl(line: string): { url: string; body: string; headers: Record<string, string> } {
  const url = /(http:\/\/\S+)/.exec(line)![1]!;
  const headers = Object.fromEntries([...line.matchAll(/-H '([^:]+): ([^']*)'/g)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
  return { url, body: /-d '([^']*)'/.exec(line)![1]!, headers };
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out; last seen:\n${describe()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
