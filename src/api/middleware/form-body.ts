import { ApiError } from '../../domain/api-errors';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An `application/x-www-form-urlencoded` body as fields, strictly: the bytes and every decoded
 * value must be valid UTF-8, and a field given twice is refused rather than silently chosen.
 */
export function parseFormBody(raw: Buffer): Record<string, string> {
  return Object.fromEntries(parseFormPairs(raw));
}

/** The same, as name-value pairs in the order they were sent (a checksum may cover them in that order). */
export function parseFormPairs(raw: Buffer): [string, string][] {
  let text: string;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    throw new ApiError('malformedBody', 'the body is not valid UTF-8');
  }
  const pairs: [string, string][] = [];
  const seen = new Set<string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decodeFormComponent(at < 0 ? pair : pair.slice(0, at));
    if (seen.has(name)) throw new ApiError('malformedBody', 'a form field is given more than once');
    seen.add(name);
    pairs.push([name, decodeFormComponent(at < 0 ? '' : pair.slice(at + 1))]);
  }
  return pairs;
}

function decodeFormComponent(s: string): string {
  try {
    // decodeURIComponent refuses escapes that do not form valid UTF-8.
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw new ApiError('malformedBody', 'a form field is not valid percent-encoded UTF-8');
  }
}

/**
 * A form's `data` field as a JSON object, or null when it is not one: read leniently, only to find
 * who signed it before the checksum is checked (the strict parse comes after authentication).
 */
export function jsonObjectOrNull(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
