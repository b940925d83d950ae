import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import type { ActivityDeps } from '../../activities';
import { connectTemporalClient } from '../../src/temporal/client';
import { temporalTls } from '../../src/temporal/tls';
import { createGatewayWorker } from '../../src/main/gateway-worker';
import { startTestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { testTemporal } from '../support/servers';
import { generateTemporalPki, startMtlsFrontend, type MtlsFrontend, type TemporalPki } from '../support/temporal-mtls';

/**
 * Temporal with mTLS (issue 22): the dev server has no TLS, so a loopback proxy stands in for an
 * mTLS frontend (client certificate required, h2) in front of it. The gateway's API client and its
 * worker connect with TEMPORAL_TLS_*; a connection without the right client certificate is refused
 * at start-up with an error that names the settings.
 */
/** The temporal section's TLS fields from the variables. */
const tlsOf = (env: Record<`TEMPORAL_TLS_${'CA_FILE' | 'CERT_FILE' | 'KEY_FILE' | 'SERVER_NAME'}`, string>) => ({
  tlsCaFile: env.TEMPORAL_TLS_CA_FILE,
  tlsCertFile: env.TEMPORAL_TLS_CERT_FILE,
  tlsKeyFile: env.TEMPORAL_TLS_KEY_FILE,
  tlsServerName: env.TEMPORAL_TLS_SERVER_NAME,
});

describe('Temporal over mTLS (TEMPORAL_TLS_*)', function () {
  this.timeout(120_000);
  let pki: TemporalPki;
  let frontend: MtlsFrontend;
  const settings = () => ({
    TEMPORAL_TLS_CA_FILE: pki.caFile,
    TEMPORAL_TLS_CERT_FILE: pki.clientCertFile,
    TEMPORAL_TLS_KEY_FILE: pki.clientKeyFile,
    TEMPORAL_TLS_SERVER_NAME: pki.serverName,
  });
  const codecKey = { masterKey: 'c'.repeat(64) };

  before(async () => {
    pki = generateTemporalPki();
    frontend = await startMtlsFrontend(pki, (await testTemporal()).address);
  });
  after(async () => {
    await frontend?.close();
    if (pki) rmSync(pki.dir, { recursive: true, force: true });
  });

  it('a gateway (API and worker) with the client certificate pays a sandbox order through the mTLS frontend', async () => {
    const gw = await startTestGateway(settings(), { temporalAddress: frontend.address, bank: 'sandbox' });
    try {
      const merchant = await gw.newMerchant();
      const orderId = newOrderId();
      const res = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      assert.equal(res.status, 202, JSON.stringify(res.json));
      await paymentFinished(gw, merchant.merchantIdentifier, orderId); // the worker ran it, through the proxy too
      assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.status, 'Success');
      assert.ok(frontend.authorizedClients.length >= 2, 'the client and the worker each connected through the frontend');
      assert.deepEqual([...new Set(frontend.authorizedClients)], ['gateway'], "with the gateway's certificate");
    } finally {
      await gw.stop();
    }
  });

  it('refuses a gateway whose certificate the frontend does not trust, at start-up, naming the settings', async () => {
    await assert.rejects(
      startTestGateway(
        { ...settings(), TEMPORAL_TLS_CERT_FILE: pki.strangerCertFile, TEMPORAL_TLS_KEY_FILE: pki.strangerKeyFile },
        { temporalAddress: frontend.address, bank: 'sandbox' },
      ),
      (e: Error) => {
        assert.match(
          e.message,
          new RegExp(`^cannot connect to Temporal at ${frontend.address} \\(mTLS: .*TEMPORAL_TLS_CERT_FILE`),
        );
        return true;
      },
    );
  });

  it("refuses the worker's connection without a client certificate, naming the settings", async () => {
    const { clientCertPair: _, ...withoutCertificate } = temporalTls(tlsOf(settings()))!;
    await assert.rejects(
      createGatewayWorker({
        address: frontend.address,
        namespace: 'default',
        taskQueue: 'never-polled',
        activityDeps: {} as ActivityDeps, // never used: the connection is refused before the worker exists
        ...codecKey,
        tls: withoutCertificate,
      }),
      new RegExp(`^Error: cannot connect to Temporal at ${frontend.address} \\(mTLS: `),
    );
  });

  it('refuses a plaintext client of the mTLS frontend, pointing at TEMPORAL_TLS_*', async () => {
    await assert.rejects(
      connectTemporalClient(frontend.address, 'default', codecKey),
      /^Error: cannot connect to Temporal at .* \(plaintext: if the frontend requires TLS, set TEMPORAL_TLS_CA_FILE/,
    );
  });

  it('names the setting whose file cannot be read', () => {
    assert.throws(
      () => temporalTls(tlsOf({ ...settings(), TEMPORAL_TLS_KEY_FILE: `${pki.dir}/missing.key` })),
      /^Error: TEMPORAL_TLS_KEY_FILE: cannot read .*missing\.key/,
    );
  });

  it('no client without a certificate reached the dev server behind the frontend', () => {
    assert.ok(!frontend.authorizedClients.includes('stranger'));
  });
});
