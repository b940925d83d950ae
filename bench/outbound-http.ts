/**
 * `npm run bench:outbound`: the webhook attempt's HTTP exchange, three ways, against one loopback
 * receiver answering SUCCESS: the gateway's outbound client (node:http, src/outbound/http-client.ts,
 * with the address-checking lookup webhooks use), Node's built-in fetch (undici inside Node), and
 * undici's own `request` when the `undici` package is installed (it is not a dependency: run
 * `npm install --no-save undici@7` first to include it). Sequential calls, as one activity makes
 * them; rounds alternate which client goes first. Prints the mean ms per call of each.
 *
 *   npm run bench:outbound [-- --calls 2000 --rounds 4]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { policyLookup } from '../src/outbound/checked-address';
import { postWebhook } from '../src/outbound/webhook-post';

type Client = { name: string; call: (url: string, body: string) => Promise<void> };

// fetch and undici set content-length themselves (and refuse one given).
const headers = {
  'content-type': 'application/x-www-form-urlencoded',
  'x-webhook-id': 'bench',
  'x-webhook-attempt': '1',
};

function optionalUndici(): {
  request: (url: string, o: object) => Promise<{ statusCode: number; body: { text(): Promise<string> } }>;
} | null {
  try {
    return require('undici') as never;
  } catch {
    return null;
  }
}

async function main() {
  const { values } = parseArgs({
    options: { calls: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '4' } },
  });
  const calls = Number(values.calls);
  const rounds = Number(values.rounds);
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('SUCCESS'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/hook`;
  const body = `txnData=${'x'.repeat(1200)}&checksum=${'a'.repeat(64)}`;
  const lookup = policyLookup({ allowLoopback: true, allowedRanges: [] });

  const clients: Client[] = [
    {
      name: 'node:http (src/outbound)',
      call: async (u, b) => {
        const r = await postWebhook(
          { deliveryId: 'bench', attempt: 1, url: u, contentType: 'application/x-www-form-urlencoded', body: b },
          {},
          lookup,
          5_000,
        );
        if (r.text !== 'SUCCESS') throw new Error(`answered ${r.status}`);
      },
    },
    {
      name: `fetch (undici ${process.versions.undici} in Node)`,
      call: async (u, b) => {
        const r = await fetch(u, {
          method: 'POST',
          headers,
          body: b,
          redirect: 'manual',
          signal: AbortSignal.timeout(5_000),
        });
        if ((await r.text()) !== 'SUCCESS') throw new Error(`answered ${r.status}`);
      },
    },
  ];
  const undici = optionalUndici();
  if (undici) {
    clients.push({
      name: 'undici.request (package)',
      call: async (u, b) => {
        const r = await undici.request(u, {
          method: 'POST',
          headers,
          body: b,
          headersTimeout: 5_000,
          bodyTimeout: 5_000,
        });
        if ((await r.body.text()) !== 'SUCCESS') throw new Error(`answered ${r.statusCode}`);
      },
    });
  }

  const totals = new Map<string, number>(clients.map((c) => [c.name, 0]));
  for (const c of clients) for (let i = 0; i < 200; i++) await c.call(url, body); // warm up
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? clients : [...clients].reverse();
    for (const c of order) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) await c.call(url, body);
      totals.set(c.name, totals.get(c.name)! + Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  server.close();
  for (const [name, ms] of totals) console.log(`${name.padEnd(34)} ${(ms / (calls * rounds)).toFixed(3)} ms/call`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
