import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { SimulatorBooks } from './books';
import { callbackSender } from './callbacks';
import { BankConductTable, type ConductSettings } from './conduct';
import { sleep, type SimulatorDesk } from './desk';
import { FaultTable } from './faults';
import { mandateDesk } from './mandates';
import { paymentDesk } from './payments';
import { refundDesk } from './refunds';
import type { PayoutEntry } from './payouts';
import { simulatorApp } from './routes';

/**
 * The bank simulator: a real HTTP server that speaks the acquirer protocol v1 (src/bank/protocol.ts)
 * with the sandbox's outcomes, keeps its own books, and produces the faults real banks produce on
 * demand (faults.ts). Never part of the gateway: `npm run bank-simulator` runs it as its own process,
 * and `npm start -- --bank=simulator` starts that process beside the stack.
 *
 *   /v1/...          the protocol (signed both ways, like a real acquirer)
 *   /pages/pay/:id   the bank's page of a REDIRECT payment (card number, net banking approval)
 *   /admin/...       books, faults and bank-side settlement, for testers (the admin token, admin-guard.ts)
 *
 * This file starts and stops it; the desks (payments.ts, refunds.ts, mandates.ts) keep the books,
 * callbacks.ts sends the callbacks, routes.ts is the HTTP face.
 */
export interface SimulatorOptions {
  /** The simulator's own secret, shared only with a sandbox gateway (never a production BANK_SECRET). */
  secret: string;
  /** Bearer token of /admin/*; a random one when absent (read it from the returned `adminToken`). */
  adminToken?: string;
  /** Address the simulator is reached at (redirect pages); defaults to the listening address. */
  publicUrl?: string;
  /** A REDIRECT without a returnUrl (no browser: a sandbox API payer) completes by itself after this long. */
  payerDelayMs?: number;
  /** Refunds settle this long after the request (PENDING meanwhile); 0 answers them at once. */
  refundDelayMs?: number;
  /** Waits between attempts of one callback (the first is usually 0). */
  callbackRetryMs?: number[];
  /** Timeout of one callback attempt. */
  callbackTimeoutMs?: number;
  /** The hostile conducts' random share and the seed of every random choice (conduct.ts). */
  conduct?: ConductSettings;
  log?: (line: string) => void;
}

export interface BankSimulator {
  url: string;
  /** Bearer token of the /admin/* routes. */
  adminToken: string;
  books: SimulatorBooks;
  /** The payouts it made or refused, by payoutId (payouts.ts). */
  payouts: Map<string, PayoutEntry>;
  faults: FaultTable;
  conduct: BankConductTable;
  server: http.Server;
  /** Callbacks still being sent settle (tests wait for them before reading the books). */
  idle(): Promise<void>;
  /** Everything the bank still has to do is done: its late answers and settlements too, and their callbacks. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startBankSimulator(
  o: SimulatorOptions,
  listen: { host?: string; port?: number } = {},
): Promise<BankSimulator> {
  const books = new SimulatorBooks();
  const payouts = new Map<string, PayoutEntry>();
  const conduct = new BankConductTable(o.conduct);
  const faults = new FaultTable(conduct.random);
  const log = o.log ?? (() => undefined);
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = o.publicUrl ?? '';

  /** Later work of the bank (a late answer, a payer on autopilot, a settling refund). */
  const later = laterIn(timers);
  const track = (p: Promise<void>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  const { send: sendCallback, notify } = callbackSender({
    secret: o.secret,
    books,
    retryMs: o.callbackRetryMs ?? [0, 250, 1000, 3000, 10_000],
    timeoutMs: o.callbackTimeoutMs ?? 10_000,
    track,
    random: conduct.random,
    log,
  });

  const desk: SimulatorDesk = {
    books,
    conduct,
    faults,
    log,
    later,
    notify,
    payerDelayMs: o.payerDelayMs ?? 200,
    refundDelayMs: o.refundDelayMs ?? 0,
    baseUrl: () => baseUrl,
  };
  const adminToken = o.adminToken ?? randomBytes(24).toString('base64url');
  const app = simulatorApp({
    secret: o.secret,
    adminToken,
    desk,
    payments: paymentDesk(desk),
    refunds: refundDesk(desk),
    mandates: mandateDesk(desk),
    payouts,
    sendCallback,
  });

  const { server, url } = await listenOn(app, listen);
  if (!baseUrl) baseUrl = url;

  return {
    url,
    adminToken,
    books,
    payouts,
    faults,
    conduct,
    server,
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    async settled() {
      while (inFlight.size > 0 || timers.size > 0) {
        await Promise.all([...inFlight]);
        if (timers.size > 0) await sleep(50);
      }
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Work run after `ms`, its timer kept in `timers` until it runs (close clears those left). */
function laterIn(timers: Set<NodeJS.Timeout>) {
  return (ms: number, work: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      work();
    }, ms);
    timers.add(t);
  };
}

async function listenOn(app: Koa, listen: { host?: string; port?: number }): Promise<{ server: http.Server; url: string }> {
  const handle = app.callback(); // Koa answers its own errors: the promise it returns never rejects
  const server = http.createServer((req, res) => {
    void handle(req, res);
  });
  server.listen(listen.port ?? 0, listen.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return { server, url };
}
