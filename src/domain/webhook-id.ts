import { hash } from 'fast-sha256';

/**
 * A delivery id named by what the call identifies: `<prefix>:<merchant>:<32 hex>`, the first 128
 * bits of SHA-256 over the identifying content (JSON, so no two contents read alike). The same
 * content always gives the same id, so a repeated start finds the delivery; distinct contents
 * collide with negligible odds, unlike the 53-bit hash used before (ids made by it stay as stored).
 * Pure JavaScript, so workflows may call it.
 */
export function contentDeliveryId(prefix: string, merchantIdentifier: string, content: unknown): string {
  const digest = hash(new TextEncoder().encode(JSON.stringify([merchantIdentifier, content])));
  const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
  return `${prefix}:${merchantIdentifier}:${hex}`;
}
