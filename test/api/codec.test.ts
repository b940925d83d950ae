import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { AesGcmPayloadCodec, codecKeyOf } from '../../src/temporal/payload-codec';
import { sharedGateway, type TestGateway } from '../support/gateway';

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
