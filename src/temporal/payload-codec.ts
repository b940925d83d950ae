import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { derivedKey } from '../domain/secrets';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
const KEY_ID = 'encryption-key-id';

/** One codec key and the id written beside every payload it sealed (a hash, never the key). */
export interface CodecKey {
  id: string;
  key: Buffer;
}

/** The codec key of a MASTER_KEY: derived for this purpose alone (HKDF), its id from its hash. */
export function codecKeyOf(masterKeyHex: string): CodecKey {
  const key = derivedKey(masterKeyHex, 'payload-codec');
  return { id: `pc_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`, key };
}

/**
 * AES-256-GCM over every payload (the Temporal payload-codec pattern): workflow inputs, results,
 * memos, signals and queries reach the server, its history and Temporal UI as ciphertext with
 * the key id in the payload's metadata. Encodes with the first key; decodes with whichever key
 * the id names, so keys rotate by putting the new one first and keeping the old ones until no
 * history needs them. A payload not encrypted (a history recorded before the codec, or one written
 * past it) is refused once the migration window is over: `acceptsPlaintext` says whether it still
 * lasts (PAYLOAD_CODEC_PLAINTEXT_UNTIL).
 */
export class AesGcmPayloadCodec implements PayloadCodec {
  private readonly byId: Map<string, Buffer>;

  constructor(
    private readonly keys: [CodecKey, ...CodecKey[]],
    private readonly acceptsPlaintext: () => boolean = () => false,
  ) {
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const { id, key } = this.keys[0];
    return payloads.map((p) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const plain = encodePayload(p);
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID]: Buffer.from(id) },
        data: sealed,
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
      if (Buffer.from(p.metadata?.encoding ?? []).toString() !== ENCRYPTED_ENCODING) {
        if (this.acceptsPlaintext()) return p;
        throw new Error('unencrypted payload refused: the codec migration window (PAYLOAD_CODEC_PLAINTEXT_UNTIL) is over');
      }
      const id = Buffer.from(p.metadata?.[KEY_ID] ?? []).toString();
      const key = this.byId.get(id);
      if (!key) throw new Error(`payload encrypted with unknown key ${id}`);
      const data = Buffer.from(p.data ?? []);
      if (data.length < 28) throw new Error('encrypted payload too short');
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return decodePayload(Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]));
    });
  }
}

/** A payload as bytes: its metadata and data as JSON with base64 values (no protobuf needed here). */
function encodePayload(p: Payload): Buffer {
  const metadata = Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  return Buffer.from(JSON.stringify({ metadata, data: Buffer.from(p.data ?? []).toString('base64') }));
}

function decodePayload(bytes: Buffer): Payload {
  const o = JSON.parse(bytes.toString('utf8')) as { metadata: Record<string, string>; data: string };
  return {
    metadata: Object.fromEntries(Object.entries(o.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(o.data, 'base64'),
  };
}

/** The codec keys of a deployment: MASTER_KEY's seals and decodes, earlier ones only decode. */
export const codecKeysOf = (masterKeyHex: string, previousMasterKeys: readonly string[] = []): [CodecKey, ...CodecKey[]] => [
  codecKeyOf(masterKeyHex),
  ...previousMasterKeys.map(codecKeyOf),
];

/**
 * Whether unencrypted payloads are still read: until `until` (wall-clock time: a deadline of the
 * deployment's migration, not business time); never when unset.
 */
export const plaintextAcceptedUntil = (until: Date | undefined) => () => until !== undefined && Date.now() < until.getTime();

/**
 * The data converter of every gateway client and worker: the default converter, then the codec.
 * `plaintextUntil`: until when payloads written before the codec are still read (unset: never).
 */
export const gatewayDataConverter = (
  masterKeyHex: string,
  previousMasterKeys: readonly string[] = [],
  plaintextUntil?: Date,
) => ({
  payloadCodecs: [new AesGcmPayloadCodec(codecKeysOf(masterKeyHex, previousMasterKeys), plaintextAcceptedUntil(plaintextUntil))],
});
