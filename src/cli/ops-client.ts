import { ApiFailure, CliFailure } from './failures';
import type { GatewayTarget } from './gateway-target';

export interface OpsRequest {
  /** A JSON body. */
  json?: unknown;
  /** A CSV file's text, sent as text/csv. */
  csv?: string;
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, string | number | undefined>;
}

const REQUEST_TIMEOUT_MS = 60_000;

/**
 * The gateway's operator API (/ops/v1) over HTTP with the bearer token: the CLI's only way to act.
 * Answers `data` of a success envelope; an error envelope becomes ApiFailure (its code and text),
 * a refused token, an unreachable gateway or an answer that is not the gateway's a CliFailure.
 */
export class OpsClient {
  constructor(private readonly target: GatewayTarget) {}

  get baseUrl(): string {
    return this.target.baseUrl;
  }

  /** A call answered in the `{success, data}` envelope; resolves to its data. */
  async call<T>(method: string, path: string, request: OpsRequest = {}): Promise<T> {
    const { status, body } = await this.send(method, path, request);
    if (isEnvelope(body) && body.success === true && status < 300) return body.data as T;
    throw this.failure(status, body);
  }

  /** A call whose answer is not enveloped (the codec-server protocol): the JSON as answered. */
  async callRaw<T>(method: string, path: string, request: OpsRequest = {}): Promise<T> {
    const { status, body } = await this.send(method, path, request);
    if (status < 300 && !isEnvelope(body)) return body as T;
    throw this.failure(status, body);
  }

  private async send(method: string, path: string, request: OpsRequest): Promise<{ status: number; body: unknown }> {
    const url = new URL(`${this.target.baseUrl}/ops/v1${path}`);
    for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { authorization: `Bearer ${this.target.opsToken}`, accept: 'application/json' };
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.csv !== undefined) {
      headers['content-type'] = 'text/csv; charset=utf-8';
      body = request.csv;
    }
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (e) {
      throw new CliFailure(
        `cannot reach the gateway at ${this.target.baseUrl} (${reasonOf(e)}); is it running? Start one with npm start, or set GATEWAY_URL`,
      );
    }
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      throw new CliFailure(
        `${this.target.baseUrl} answered HTTP ${res.status} with something other than the gateway's JSON (is GATEWAY_URL the gateway?): ${text.slice(0, 200)}`,
      );
    }
  }

  private failure(status: number, body: unknown): CliFailure {
    const message = isEnvelope(body) ? body.message : undefined;
    if (status === 401)
      return new CliFailure(
        `the gateway at ${this.target.baseUrl} refused the operator token${message ? ` (${message.code} ${message.text})` : ''}: set OPS_TOKEN to that gateway's token`,
      );
    if (message) return new ApiFailure(status, message.code, message.text);
    return new CliFailure(`${this.target.baseUrl} answered HTTP ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
}

interface Envelope {
  success: boolean;
  data?: unknown;
  message?: { code: string; text: string };
}

const isEnvelope = (body: unknown): body is Envelope =>
  typeof body === 'object' && body !== null && typeof (body as { success?: unknown }).success === 'boolean';

/** fetch hides the socket's error in `cause`: ECONNREFUSED, ENOTFOUND, a timeout. */
function reasonOf(e: unknown): string {
  if (e instanceof DOMException && e.name === 'TimeoutError') return `no answer in ${REQUEST_TIMEOUT_MS / 1000} s`;
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
}
