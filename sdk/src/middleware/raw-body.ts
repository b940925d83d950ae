import type { IncomingMessage } from 'node:http';

/**
 * Getting a webhook's raw body whatever ran before us, the classic trap of webhook checks (a body
 * parser that consumed the stream and kept only its parse). In order:
 * 1. a raw body a parser kept: `rawBody` (@koa/bodyparser, koa-bodyparser, our `captureRawBody`
 *    verify hook for Express's parsers, several hosting platforms), or koa-body's unparsedBody;
 * 2. the request stream itself, when nothing has read it (no parser, or one that skipped this
 *    content type);
 * 3. otherwise the parsed fields re-encoded exactly as the gateway encodes its webhooks (JSON
 *    `{"txnData":...,"checksum":...}` or the form `txnData=...&checksum=...`). `txnData` is a string
 *    inside the body, so a JSON or form parser returns it unchanged and the contract's checksum
 *    verifies; the Standard Webhooks signature then verifies only if the re-encoding is
 *    byte-identical, so a body that was not sent in the gateway's form is refused, never accepted.
 */
export type Raw = string | Buffer;

const UNPARSED = Symbol.for('unparsedBody');

export function keptRawBody(...holders: unknown[]): Raw | undefined {
  for (const h of holders) {
    if (typeof h !== 'object' || h === null) continue;
    const raw = (h as { rawBody?: unknown }).rawBody;
    if (typeof raw === 'string' || Buffer.isBuffer(raw)) return raw;
    const body = (h as { body?: Record<symbol, unknown> }).body;
    const unparsed = body && typeof body === 'object' ? body[UNPARSED] : undefined;
    if (typeof unparsed === 'string' || Buffer.isBuffer(unparsed)) return unparsed;
  }
  return undefined;
}

/** Whether something already read the request's body (the test the body parsers themselves use). */
export const bodyConsumed = (req: IncomingMessage) => req.readableEnded || (req.complete && !req.readable);

export async function readStream(req: IncomingMessage, limitBytes = 1_048_576): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new Error('webhook body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The gateway's own encoding of parsed webhook fields (see 3. above), or undefined when they are not there. */
export function reencoded(parsed: unknown, contentType: string | undefined): string | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { txnData, checksum } = parsed as { txnData?: unknown; checksum?: unknown };
  if (typeof txnData !== 'string' || typeof checksum !== 'string') return undefined;
  return (contentType ?? '').includes('json')
    ? JSON.stringify({ txnData, checksum })
    : new URLSearchParams({ txnData, checksum }).toString();
}

/** The raw body of a webhook request, by the first way above that works. */
export async function webhookRawBody(req: IncomingMessage, holders: unknown[], parsed: unknown): Promise<Raw | undefined> {
  const kept = keptRawBody(...holders);
  if (kept !== undefined) return kept;
  if (!bodyConsumed(req)) return readStream(req);
  return reencoded(parsed, req.headers['content-type']);
}

/**
 * A `verify` hook for Express's body parsers that keeps the raw bytes on `req.rawBody`:
 * `app.use(express.json({ verify: captureRawBody }))`. Optional: the middleware works without it.
 */
export function captureRawBody(req: IncomingMessage, _res: unknown, buf: Buffer): void {
  (req as unknown as { rawBody?: Buffer }).rawBody = buf;
}
