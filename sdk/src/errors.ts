/**
 * Every failure the gateway answers carries the contract's code and text, whatever the API
 * family's envelope: `message: {code, text}` (status, QR, ledger, bulk, ops), `responseCode` and
 * `responseDescription` (the form APIs), or a payment-link batch's `statusCode` and `errorMessage`.
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    /** The contract's code, as text (`'1030'`, `'180'`, `'2020'`). */
    readonly code: string,
    /** The contract's text for it. */
    readonly text: string,
    /** The HTTP status of the answer (0 when the gateway could not be reached). */
    readonly httpStatus: number,
    /** The answer's body, parsed when it was JSON. */
    readonly body?: unknown,
  ) {
    super(`${code} ${text}${httpStatus ? ` (HTTP ${httpStatus})` : ''}`);
  }
}

/** The code and text of any of the gateway's envelopes, or undefined when the body has none. */
export function codeAndText(body: unknown): { code: string; text: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const m = b.message as Record<string, unknown> | undefined;
  if (m && typeof m === 'object' && m.code !== undefined) return { code: String(m.code), text: String(m.text ?? '') };
  if (b.responseCode !== undefined) return { code: String(b.responseCode), text: String(b.responseDescription ?? '') };
  if (b.statusCode !== undefined && b.errorMessage) return { code: String(b.statusCode), text: String(b.errorMessage) };
  return undefined;
}
