import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/devstack/process';
import { startTemporalTestServer } from '../../src/devstack/temporal-server';
import { startTestGateway, type TestGateway } from './gateway';
import { request, type HttpResult } from './http';

/**
 * The gateway in time-skipping mode, as `npm start -- --time-skipping` runs it: its own Temporal
 * test server (time locked until a skip), its own store database, the worker and the API over HTTP.
 */
export async function startTimeSkippingGateway(
  overrides: Record<string, string> = {},
  options: Pick<NonNullable<Parameters<typeof startTestGateway>[1]>, 'bank' | 'activityInterceptors'> = {},
): Promise<TestGateway> {
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-test-server-'));
  const server = await startTemporalTestServer({ port: await freePort(), logDir });
  try {
    const gw = await startTestGateway(
      // The production waits: time skipping is what makes them quick.
      {
        TIME_SKIPPING: 'true',
        BANK_TIMEOUT_SECONDS: '900',
        MONGODB_DB: `gateway_ts_${randomBytes(4).toString('hex')}`,
        ...overrides,
      },
      { temporalAddress: server.address, ...options },
    );
    const stop = gw.stop.bind(gw);
    gw.stop = async () => {
      await stop();
      await server.process.stop();
      rmSync(logDir, { recursive: true, force: true });
    };
    return gw;
  } catch (e) {
    await server.process.stop();
    throw e;
  }
}

export const gatewayTime = (gw: TestGateway): Promise<HttpResult> => request(`${gw.baseUrl}/sandbox/v1/time`);

export const skipTime = (gw: TestGateway, body: object | string): Promise<HttpResult> =>
  request(`${gw.baseUrl}/sandbox/v1/time/skip`, { body });
