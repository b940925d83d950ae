/**
 * One HTTP server of a comparison in a process of its own, so neither side shares an event loop,
 * a heap or a garbage collector with the other or with the bench (and its gateway's worker).
 * `node --import tsx server-child.ts <kind> <json>`, forked by server-process.ts:
 *   - `gateway-api`: the gateway's API as main/api.ts serves it (no worker), from config input <json>;
 *   - `bare-find`: a bare Koa endpoint that reads the body and answers the order's `findOne` by
 *     `_id`, through a client with the gateway's driver options, <json> = { uri, dbName }.
 * Sends { url } once listening; answers 'cpu' with its CPU time so far, { profile: 'start' } and
 * { profile: 'stop', file } by sampling its CPU through the inspector (only the measured load, not
 * the start-up) into a .cpuprofile file, 'settings' with the settings it serves with (the gateway's
 * log level and limits; none for the bare endpoint), { commands: 'start' } and { commands: 'stop' }
 * with the store commands it sent in between, by name; exits on 'stop'.
 */
import { writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { MongoClient } from 'mongodb';
import getRawBody from 'raw-body';
import { createApp, refusalsOfPath } from '../../src/api/app';
import { createServer } from '../../src/api/server';
import { loadConfig, type ConfigInput } from '../../src/config';
import { createLogger } from '../../src/logger';
import { apiDeps } from '../../src/main/api-deps';
import { openRuntime } from '../../src/main/runtime';
import { STATUS_SOURCE_FIELDS } from '../../src/domain/status-record';
import { STORE_CLIENT_OPTIONS } from '../../src/store/mongo';
import { orderKey } from '../../src/store/transaction-repository';
import { storeCommandCounter } from './work';

/** The same read as the status API's: the fields its record is made of. */
const STATUS_FIELDS = Object.fromEntries(STATUS_SOURCE_FIELDS.map((k) => [k, 1]));

type Started = { server: Server; close(): Promise<void>; settings: Record<string, string | number> };

async function gatewayApi(input: Partial<Record<keyof ConfigInput, string>>): Promise<Started> {
  const config = loadConfig(input);
  const rt = await openRuntime(
    config,
    createLogger(config.observability.logLevel),
    config.store.mongodbUri!,
    config.temporal.address!,
  );
  const server = createServer(createApp(apiDeps(rt)), {
    requestTimeoutMs: config.http.requestTimeoutSeconds * 1000,
    refusalsOfPath,
  });
  return {
    server,
    close: () => rt.close(),
    settings: {
      LOG_LEVEL: config.observability.logLevel,
      RATE_LIMIT_PER_SECOND: config.limits.requestsPerSecond,
      AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: config.limits.authFailuresPerAddressPerMinute,
      AUTH_FAILURES_PER_MERCHANT_PER_MINUTE: config.limits.authFailuresPerMerchantPerMinute,
      MERCHANT_CACHE_SECONDS: config.store.merchantCacheSeconds,
    },
  };
}

async function bareFind(o: { uri: string; dbName: string }): Promise<Started> {
  const client = new MongoClient(o.uri, { ...STORE_CLIENT_OPTIONS });
  await client.connect();
  const coll = client.db(o.dbName).collection<{ _id: string }>('transactions');
  const app = new Koa();
  app.use(async (ctx) => {
    const body = await getRawBody(ctx.req, { limit: 65536, encoding: 'utf8' });
    const { merchantIdentifier, orderId } = JSON.parse(body) as { merchantIdentifier: string; orderId: string };
    const order = await coll.findOne({ _id: orderKey({ merchantIdentifier, orderId }) }, { projection: STATUS_FIELDS });
    ctx.body = { status: true, message: { code: 100, text: 'Transaction completed successfully' }, data: { orders: [order] } };
  });
  return { server: http.createServer(app.callback()), close: () => client.close(), settings: {} };
}

async function main() {
  const [kind, json] = process.argv.slice(2);
  const args = JSON.parse(json!) as never;
  const started = kind === 'gateway-api' ? await gatewayApi(args) : await bareFind(args);
  started.server.listen(0, '127.0.0.1');
  await new Promise((resolve) => started.server.once('listening', resolve));
  const inspector = new Session();
  inspector.connect();
  const commands = storeCommandCounter();
  type Message = string | { profile: 'start' | 'stop'; file?: string } | { commands: 'start' | 'stop' };
  process.on('message', (m: Message) => {
    if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
    if (m === 'settings') process.send!({ settings: started.settings });
    if (typeof m === 'object' && 'commands' in m) {
      if (m.commands === 'start') commands.start();
      process.send!({ commands: m.commands === 'stop' ? commands.stop() : {} });
    }
    if (typeof m === 'object' && 'profile' in m) void profile(inspector, m).then(() => process.send!({ profiled: m.profile }));
    if (m === 'stop') {
      started.server.close();
      void started.close().finally(() => process.exit(0));
    }
  });
  process.send!({ url: `http://127.0.0.1:${(started.server.address() as AddressInfo).port}` });
}

async function profile(inspector: Session, m: { profile: 'start' | 'stop'; file?: string }) {
  if (m.profile === 'start') {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
    await inspector.post('Profiler.start');
  } else {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(m.file!, JSON.stringify(profile));
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
