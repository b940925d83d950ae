import { codeAndText, GatewayError } from './errors';

export type Fetch = typeof fetch;

/** One request to the gateway: a JSON or form body, sent as the exact text given (what was signed). */
export async function send(
  fetchImpl: Fetch,
  url: string,
  init: { body: string; contentType: 'application/json' | 'application/x-www-form-urlencoded'; headers?: Record<string, string> },
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': init.contentType, accept: 'application/json', ...init.headers },
      body: init.body,
      redirect: 'manual',
    });
  } catch (e) {
    throw new GatewayError('NETWORK', `the gateway could not be reached: ${(e as Error).message}`, 0);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  if (!response.ok) {
    const found = codeAndText(body);
    throw new GatewayError(found?.code ?? String(response.status), found?.text ?? response.statusText, response.status, body);
  }
  return body;
}

/** `data=<json text>&checksum=<hex>`: the form APIs' body, signed over the exact `data` text. */
export function signedDataForm(data: string, checksum: string): string {
  return new URLSearchParams({ data, checksum }).toString();
}
