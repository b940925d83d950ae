import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { AesGcmPayloadCodec, ENCRYPTED_ENCODING, codecKeyOf, gatewayDataConverter } from '../../src/temporal/payload-codec';

describe('Temporal payload codec (AES-256-GCM, key id in the metadata)', () => {
  const master = randomBytes(32).toString('hex');
  const input = { merchantIdentifier: 'm1', instrument: { kind: 'UPI', vpa: 'meera@okaxis' } };

  it('round-trips a payload; the encoded one holds no payer data in clear and names its key', async () => {
    const codec = new AesGcmPayloadCodec([codecKeyOf(master)]);
    const payload = defaultPayloadConverter.toPayload(input);
    const [sealed] = await codec.encode([payload]);
    assert.equal(Buffer.from(sealed!.metadata!.encoding!).toString(), ENCRYPTED_ENCODING);
    assert.equal(Buffer.from(sealed!.metadata!['encryption-key-id']!).toString(), codecKeyOf(master).id);
    assert.ok(!Buffer.from(sealed!.data!).toString('latin1').includes('meera@okaxis'));
    const [opened] = await codec.decode([sealed!]);
    assert.deepEqual(defaultPayloadConverter.fromPayload(opened!), input);
  });

  it('rotates: the new key encodes, the old one still decodes what it sealed; an unknown key or tampering fails', async () => {
    const oldKey = codecKeyOf(master);
    const newKey = codecKeyOf(randomBytes(32).toString('hex'));
    const [old] = await new AesGcmPayloadCodec([oldKey]).encode([defaultPayloadConverter.toPayload('x')]);
    const rotated = new AesGcmPayloadCodec([newKey, oldKey]);
    assert.equal(defaultPayloadConverter.fromPayload((await rotated.decode([old!]))[0]!), 'x');
    const [fresh] = await rotated.encode([defaultPayloadConverter.toPayload('y')]);
    assert.equal(Buffer.from(fresh!.metadata!['encryption-key-id']!).toString(), newKey.id);
    await assert.rejects(() => new AesGcmPayloadCodec([oldKey]).decode([fresh!]), /unknown key/);
    const tampered = { ...fresh!, data: Buffer.from(fresh!.data!).map((b, i) => (i === 20 ? b ^ 1 : b)) };
    await assert.rejects(() => rotated.decode([tampered]));
  });

  it('refuses a payload never encrypted, unless the migration window (PAYLOAD_CODEC_PLAINTEXT_UNTIL) still lasts', async () => {
    const plain = defaultPayloadConverter.toPayload({ a: 1 });
    await assert.rejects(() => new AesGcmPayloadCodec([codecKeyOf(master)]).decode([plain]), /unencrypted payload refused/);
    const decode = (until?: Date) => gatewayDataConverter(master, [], until).payloadCodecs[0]!.decode([plain]);
    await assert.rejects(() => decode(), /unencrypted payload refused/, 'unset: never');
    assert.deepEqual(await decode(new Date(Date.now() + 60_000)), [plain], 'during the window');
    await assert.rejects(() => decode(new Date(Date.now() - 1)), /unencrypted payload refused/, 'once it is over');
    // Encrypted payloads are read whatever the window.
    const [sealed] = await new AesGcmPayloadCodec([codecKeyOf(master)]).encode([plain]);
    const [opened] = await gatewayDataConverter(master).payloadCodecs[0]!.decode([sealed!]);
    assert.deepEqual(defaultPayloadConverter.fromPayload(opened!), { a: 1 });
  });

  it("the clients' and workers' converter: MASTER_KEY seals, PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS only decode", async () => {
    const previous = randomBytes(32).toString('hex');
    const [before] = await gatewayDataConverter(previous).payloadCodecs[0]!.encode([defaultPayloadConverter.toPayload(input)]);
    const [codec] = gatewayDataConverter(master, [previous]).payloadCodecs;
    assert.deepEqual(defaultPayloadConverter.fromPayload((await codec!.decode([before!]))[0]!), input);
    const [after] = await codec!.encode([defaultPayloadConverter.toPayload(input)]);
    assert.equal(Buffer.from(after!.metadata!['encryption-key-id']!).toString(), codecKeyOf(master).id);
    await assert.rejects(() => gatewayDataConverter(master).payloadCodecs[0]!.decode([before!]), /unknown key/);
  });
});
