import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { AesGcmPayloadCodec, codecKeyOf } from '../../src/temporal/payload-codec';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { sharedGateway, type TestGateway } from '../support/gateway';
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
  const call = (direction: string, body: unknown, token: string | null = gw.rt.config.OPS_TOKEN) =>
    fetch(`${gw.baseUrl}/ops/v1/codec/${direction}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('decodes what the gateway encrypted (as Temporal UI would), and encodes', async () => {
    const sealed = await new AesGcmPayloadCodec([codecKeyOf(gw.rt.config.MASTER_KEY)]).encode([
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

  it('the raw workflow history holds no payer data: the VPA a link was paid with is only in encrypted payloads', async () => {
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
      namespace: gw.rt.config.TEMPORAL_NAMESPACE,
      execution: { workflowId },
    });
    const events = raw.history?.events ?? [];
    assert.ok(events.length > 3);
    // The service answers protobuf messages; as JSON their bytes are base64 strings: decode every one.
    const json = JSON.stringify(events);
    const decoded = (field: string) =>
      [...json.matchAll(new RegExp(`"${field}":"([A-Za-z0-9+/=]*)"`, 'g'))].map((m) =>
        Buffer.from(m[1]!, 'base64').toString('latin1'),
      );
    const data = decoded('data');
    assert.ok(data.length > 3, 'payloads found');
    assert.ok(!data.some((d) => d.includes(vpa)) && !json.includes(vpa), 'the VPA is in the raw history in clear');
    // Search attributes (indexed) and the SDK's patch markers are never encoded (Temporal's design):
    // they hold ids and patch names, never payer data.
    const encodings = [
      ...JSON.stringify(events, (k, v: unknown) => (['searchAttributes', 'patch-data'].includes(k) ? undefined : v)).matchAll(
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
