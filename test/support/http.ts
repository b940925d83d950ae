import { hmacSha256Hex } from '../../src/domain/checksum';

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

/** Real HTTP to the gateway on loopback. A string body is sent byte for byte. */
export async function request(
  url: string,
  init: { method?: string; body?: string | object; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const body = typeof init.body === 'object' ? JSON.stringify(init.body) : init.body;
  const res = await fetch(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Status API call as a merchant makes it: the checksum header over the exact body sent. */
export function checkStatus(baseUrl: string, secretKey: string, body: object | string, headers: Record<string, string> = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return request(`${baseUrl}/api/payments/v1/status`, {
    body: raw,
    headers: { checksum: hmacSha256Hex(secretKey, raw), ...headers },
  });
}
