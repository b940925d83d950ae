import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFerretdb } from '../../src/devstack/ferretdb';
import { freePort } from '../../src/devstack/process';
import { startTestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { ledger } from '../support/ledger';

describe('when the store is down', function () {
  this.timeout(60_000);

  it('answers 503 in the endpoint envelope (the ledger with its code 1036), and /ready says so', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-outage-'));
    const store = await startFerretdb({ port: await freePort(), dataDir: dir, logDir: dir });
    const gw = await startTestGateway({ MONGODB_URI: store.uri, MERCHANT_CACHE_SECONDS: '0' });
    try {
      const merchant = await gw.newMerchant();
      const body = { merchantIdentifier: merchant.merchantIdentifier, orderId: 'o-1', version: 13 };
      assert.equal((await checkStatus(gw.baseUrl, merchant.secretKey, body)).status, 200);

      await store.process.stop();
      const res = await checkStatus(gw.baseUrl, merchant.secretKey, body);
      assert.equal(res.status, 503);
      assert.deepEqual(res.json, { status: false, message: { code: 2050, text: 'Service temporarily unavailable' } });
      // The ledger's contract has its own code for any failure of the service: 1036.
      const page = await ledger(gw, merchant.apiKey, { startDateTime: '2026-01-01', endDateTime: '2026-01-01', status: 'ALL' });
      assert.equal(page.status, 503);
      assert.deepEqual(page.json, { success: false, message: { code: '1036', text: 'Generic failure, please try again' } });
      const ready = await request(`${gw.baseUrl}/ready`);
      assert.equal(ready.status, 503);
      assert.equal(ready.json.store, 'unavailable');
    } finally {
      await gw.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
