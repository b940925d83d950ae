/**
 * `npm run bench`: every hot path beside its ceiling, measured in one run on this machine, against
 * the real stack (FerretDB and the Temporal dev server, or MONGODB_URI / TEMPORAL_ADDRESS). Prints
 * a table and MET/MISSED per target; exits non-zero on a miss. Ratios, never absolute timings:
 * these machines are shared and noisy, and a ratio against a ceiling from the same run is not.
 *
 *   npm run bench [-- --seconds 10 --connections 8 --large 100000]
 *   npm run bench -- --only status      (status | limits | payments | scaling | bank)
 *   npm run bench:status -- --profile .data/profiles   (and where the status API's CPU goes)
 */
import { parseArgs } from 'node:util';
import { startTestGateway } from '../test/support/gateway';
import { stopTestServers } from '../test/support/servers';
import { benchBankConnector } from './bank-connector';
import { benchPaymentCreation } from './payment-creation';
import { benchRateLimitCost } from './rate-limit';
import { benchStatusApi } from './status-api';
import { benchStatusScaling } from './status-scaling';
import type { LoadResult } from './support/load';
import { report, type BenchRow } from './support/report';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '8' },
      small: { type: 'string', default: '1000' },
      large: { type: 'string', default: '100000' },
      only: { type: 'string', multiple: true },
      profile: { type: 'string' },
    },
  });
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const wanted = (name: string) => !values.only || values.only.includes(name);

  // Limits off for the ceilings; the limits row starts a second gateway with them on.
  const gw = await startTestGateway({ MERCHANT_CACHE_SECONDS: '30', RATE_LIMIT_PER_SECOND: '0' });
  const rows: BenchRow[] = [];
  const details: Record<string, LoadResult> = {};
  try {
    // Scaling first: it grows the store, and the other paths are then measured on a full one.
    if (wanted('scaling')) {
      const r = await benchStatusScaling(gw, { seconds, small: Number(values.small), large: Number(values.large) });
      rows.push(...r.rows);
      Object.assign(details, r.details);
    }
    if (wanted('status')) {
      const r = await benchStatusApi(gw, { connections, seconds, ...(values.profile ? { cpuProfileDir: values.profile } : {}) });
      rows.push(...r.rows);
      Object.assign(details, r.details);
      for (const [side, p] of Object.entries(r.profiles ?? {})) {
        console.log(`\n${side}: ${p.totalUs} µs of CPU per request (self time, µs per request)`);
        console.table(p.byGroup.filter((g) => g.usPerRequest >= 0.5));
        console.table(p.byFunction);
      }
    }
    if (wanted('limits')) {
      const limited = await startTestGateway({
        MERCHANT_CACHE_SECONDS: '30',
        RATE_LIMIT_PER_SECOND: '1000000',
        MASTER_KEY: gw.rt.config.secrets.masterKey, // it reads the merchants the first one provisions
      });
      try {
        const r = await benchRateLimitCost(gw, limited, { connections, seconds });
        rows.push(...r.rows);
        Object.assign(details, r.details);
      } finally {
        await limited.stop();
      }
    }
    if (wanted('payments')) {
      const r = await benchPaymentCreation(gw, { connections, seconds });
      rows.push(...r.rows);
      Object.assign(details, r.details);
    }
    if (wanted('bank')) {
      // The same payments through the http connector and the bank simulator on loopback.
      const overHttp = await startTestGateway(
        { MERCHANT_CACHE_SECONDS: '30', RATE_LIMIT_PER_SECOND: '0', MASTER_KEY: gw.rt.config.secrets.masterKey },
        { bank: 'simulator' },
      );
      try {
        const r = await benchBankConnector(gw, overHttp, { connections, seconds });
        rows.push(...r.rows);
        Object.assign(details, r.details);
      } finally {
        await overHttp.stop();
      }
    }
  } finally {
    await gw.stop();
    await stopTestServers();
  }
  console.log(`\n${connections} connections, ${seconds} s per measurement\n`);
  console.table(details);
  return report(rows) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(e);
    process.exit(1);
  },
);
