/**
 * A Temporal payload as the codec server encodes and decodes it: metadata and data as bytes (the
 * shape of Temporal's own Payload, so the codec takes one as it is).
 */
export interface CodecPayload {
  metadata?: Record<string, Uint8Array> | null;
  data?: Uint8Array | null;
}
