import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { AesGcmPayloadCodec, codecKeyOf } from '../../src/temporal/payload-codec';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { sharedGateway, startTestGateway, type TestGateway } from '../support/gateway';
import { createLinks, linkEntry, linkPath, newBatchId, openLink, payForm } from '../support/payment-links';

type Wire = { metadata: Record<string, string>; data: string };
const toWire = (p: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }): Wire => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

/** The codec server Temporal UI and the CLI call to show encrypted payloads to operators. */
describe('Codec endpoint: POST /ops/v1/codec/encode and /decode behind the operator token', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await sharedGateway();
  });
  const call = (direction: string, body: unknown, token: string | null = gw.rt.config.secrets.opsToken, on: TestGateway = gw) =>
    fetch(`${on.baseUrl}/ops/v1/codec/${direction}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('decodes what the gateway encrypted (as Temporal UI would), and encodes', async () => {
    const sealed = await new AesGcmPayloadCodec([codecKeyOf(gw.rt.config.secrets.masterKey)]).encode([
      defaultPayloadConverter.toPayload({ vpa: 'meera@okaxis' }),
    ]);
    const res = await call('decode', { payloads: sealed.map(toWire) });
    assert.equal(res.status, 200);
    const [plain] = ((await res.json()) as { payloads: Wire[] }).payloads;
    assert.deepEqual(JSON.parse(Buffer.from(plain!.data, 'base64').toString()), { vpa: 'meera@okaxis' });

    const enc = await call('encode', { payloads: [plain] });
    const [again] = ((await enc.json()) as { payloads: Wire[] }).payloads;
    assert.ok(!Buffer.from(again!.data, 'base64').toString('latin1').includes('meera@okaxis'));
    const back = ((await (await call('decode', { payloads: [again] })).json()) as { payloads: Wire[] }).payloads;
    assert.deepEqual(back, [plain]);
  });

  /** Pays a link by UPI on the shared gateway; its payment workflow's raw history (no codec) and the VPA. */
  async function paidLinkHistory() {
    const merchant = await gw.newMerchant('Codec Shop');
    const entry = linkEntry();
    const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: [entry] });
    const path = linkPath(res.json.data[0].link);
    const page = await openLink(gw, path);
    const vpa = gw.bank ? 'meera@okaxis' : 'success@sandbox';
    assert.equal((await payForm(gw, path, { csrf: page.csrf, payerVpa: vpa }, { cookie: page.cookie })).status, 303);
    const workflowId = paymentWorkflowId(merchant.merchantIdentifier, entry.orderId as string);
    await gw.rt.temporal.workflow.getHandle(workflowId).result();
    const raw = await gw.rt.temporal.workflowService.getWorkflowExecutionHistory({
      namespace: gw.rt.config.temporal.namespace,
      execution: { workflowId },
    });
    return { vpa, workflowId, events: raw.history?.events ?? [] };
  }

  it('the raw workflow history holds no payer data: the VPA a link was paid with is only in encrypted payloads', async () => {
    const { vpa, workflowId, events } = await paidLinkHistory();
    assert.ok(events.length > 3);
    // The service answers protobuf messages; as JSON their bytes are base64 strings: decode every one.
    const json = JSON.stringify(events);
    const data = [...json.matchAll(/"data":"([A-Za-z0-9+/=]*)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('latin1'));
    assert.ok(data.length > 3, 'payloads found');
    assert.ok(!data.some((d) => d.includes(vpa)) && !json.includes(vpa), 'the VPA is in the raw history in clear');
    // Search attributes (indexed) and a local activity marker's own record
    // (`data`: its sequence, attempt, activity id and type, times; its `result` is a payload like any
    // other) are never encoded (Temporal's design): they hold ids and names, never payer data.
    const withoutCoreRecords = events.map((e) => {
      const marker = (e as { markerRecordedEventAttributes?: { markerName?: string; details?: Record<string, unknown> } })
        .markerRecordedEventAttributes;
      if (marker?.markerName !== 'core_local_activity' || !marker.details) return e;
      const { data: _core, ...details } = marker.details;
      return { ...e, markerRecordedEventAttributes: { ...marker, details } };
    });
    const encodings = [
      ...JSON.stringify(withoutCoreRecords, (k, v: unknown) => (k === 'searchAttributes' ? undefined : v)).matchAll(
        /"encoding":"([A-Za-z0-9+/=]*)"/g,
      ),
    ];
    assert.deepEqual(
      [...new Set(encodings.map((m) => Buffer.from(m[1]!, 'base64').toString()))],
      ['binary/encrypted'],
      'every other payload is encrypted',
    );
    // Through the gateway's client (the codec) the workflow's input still reads.
    const history = await gw.rt.temporal.workflow.getHandle(workflowId).fetchHistory();
    assert.ok(history.events?.length);
  });

  describe('Temporal UI decoding through the endpoint (CODEC_CORS_ORIGINS), after a key rotation', () => {
    const UI = 'http://127.0.0.1:8233';
    let rotated: TestGateway;
    before(async () => {
      // The same deployment after MASTER_KEY was rotated: the shared gateway's key is now a previous one.
      rotated = await startTestGateway({
        MASTER_KEY: randomBytes(32).toString('hex'),
        PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS: gw.rt.config.secrets.masterKey,
        CODEC_CORS_ORIGINS: `${UI},https://ui.example`,
      });
    });
    after(() => rotated?.stop());

    const preflight = (origin: string) =>
      fetch(`${rotated.baseUrl}/ops/v1/codec/decode`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,x-namespace',
        },
      });

    it("answers the browser's CORS preflight (no credentials) for the UI's origin only", async () => {
      const ok = await preflight(UI);
      assert.equal(ok.status, 204);
      assert.equal(ok.headers.get('access-control-allow-origin'), UI);
      assert.equal(ok.headers.get('access-control-allow-credentials'), 'true');
      assert.match(ok.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
      const allowed = (ok.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const h of ['authorization', 'content-type', 'x-namespace']) assert.ok(allowed.includes(h), h);
      const other = await preflight('https://evil.example');
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      assert.equal(other.headers.get('access-control-allow-headers'), null);
      // Without a listed origin the endpoint never says a browser may read it, even with the token.
      const res = await fetch(`${gw.baseUrl}/ops/v1/codec/decode`, {
        method: 'POST',
        headers: { origin: UI, 'content-type': 'application/json', authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
        body: JSON.stringify({ payloads: [] }),
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
    });

    it("decodes a payment's history as the UI asks (POST {payloads}, X-Namespace), payloads sealed under the previous key", async () => {
      const { vpa, events } = await paidLinkHistory();
      // Every payload of the history, as Temporal UI sends them: protobuf JSON, bytes base64.
      const payloads: Wire[] = [];
      const walk = (o: unknown, key = ''): void => {
        if (!o || typeof o !== 'object' || key === 'searchAttributes') return;
        const p = o as { metadata?: Record<string, Uint8Array>; data?: Uint8Array };
        if (p.metadata && p.data instanceof Uint8Array) payloads.push(toWire(p));
        else for (const [k, v] of Object.entries(o)) walk(v, k);
      };
      walk(events);
      const encrypted = payloads.filter(
        (p) => Buffer.from(p.metadata.encoding ?? '', 'base64').toString() === 'binary/encrypted',
      );
      assert.ok(encrypted.length > 3, 'encrypted payloads in the history');
      const res = await fetch(`${rotated.baseUrl}/ops/v1/codec/decode`, {
        method: 'POST',
        headers: {
          origin: UI,
          'content-type': 'application/json',
          'x-namespace': gw.rt.config.temporal.namespace,
          authorization: `Bearer ${rotated.rt.config.secrets.opsToken}`,
        },
        body: JSON.stringify({ payloads: encrypted }),
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('access-control-allow-origin'), UI);
      const decoded = ((await res.json()) as { payloads: Wire[] }).payloads;
      assert.equal(decoded.length, encrypted.length);
      const clear = decoded.map((p) => Buffer.from(p.data, 'base64').toString('utf8'));
      assert.ok(
        decoded.every((p) => Buffer.from(p.metadata.encoding ?? '', 'base64').toString() !== 'binary/encrypted'),
        'all decoded',
      );
      assert.ok(
        clear.some((d) => d.includes(vpa)),
        'the VPA reads again through the codec endpoint',
      );
      // The rotated deployment seals under its new key only; the old gateway cannot read that.
      const [sealed] = (
        (await (await call('encode', { payloads: [decoded[0]] }, rotated.rt.config.secrets.opsToken, rotated)).json()) as {
          payloads: Wire[];
        }
      ).payloads;
      assert.notEqual(sealed!.metadata['encryption-key-id'], encrypted[0]!.metadata['encryption-key-id']);
      assert.equal((await call('decode', { payloads: [sealed] })).status, 400);
    });
  });

  it('refuses without the operator token (401), and bad input or a foreign key is 400, never a 500', async () => {
    assert.equal((await call('decode', { payloads: [] }, null)).status, 401);
    assert.equal((await call('decode', { payloads: [] }, 'wrong')).status, 401);
    const foreign = await new AesGcmPayloadCodec([codecKeyOf(randomBytes(32).toString('hex'))]).encode([
      defaultPayloadConverter.toPayload('x'),
    ]);
    const tampered = { ...toWire(foreign[0]!), data: Buffer.from('short').toString('base64') };
    for (const body of [
      '{not json',
      { payloads: 'x' },
      { payloads: [{ metadata: { encoding: '***' }, data: '' }] },
      { payloads: foreign.map(toWire) },
      { payloads: [tampered] },
      { payloads: [], extra: 1 },
    ]) {
      const res = await call('decode', body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });
});
