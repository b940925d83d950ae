import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from '../domain/network-address';
import { policyLookup, refusedLiteral, urlHost } from './checked-address';
import { sendHttp } from './http-client';

/** One webhook call: what is posted, under which delivery id and attempt number. */
export interface WebhookCall {
  deliveryId: string;
  attempt: number;
  url: string;
  contentType: string;
  body: string;
}

export type WebhookAnswer = { status: number; text: string; retryAfter: string | undefined };
export type WebhookPostResult = WebhookAnswer | { status: null; text: null; error: string };

/** What of a receiver's answer is read: enough for SUCCESS and the 512 bytes a delivery keeps. */
const READ_BYTES = 64 * 1024;

/**
 * One attempt to an address the policy allows (an address literal is checked here, a name when
 * resolved): the answer, or the error as text. What the delivery workflow and the dashboard's test
 * webhook both send through.
 */
export async function postCheckedWebhook(
  call: WebhookCall,
  signed: Record<string, string>,
  policy: AddressPolicy,
  timeoutMs: number,
  lookup: LookupFunction = policyLookup(policy),
): Promise<WebhookPostResult> {
  // An address literal never goes through lookup: check it here.
  const host = urlHost(new URL(call.url));
  const literalRefused = refusedLiteral(host, policy);
  if (literalRefused) return { status: null, text: null, error: `webhook address refused: ${host} is ${literalRefused}` };
  return postWebhook(call, signed, lookup, timeoutMs).catch((e: Error) => ({ status: null, text: null, error: e.message }));
}

/**
 * POST without following redirects, over a connection to an address `lookup` checked. `timeoutMs`
 * is a hard deadline on the whole attempt (connect, headers and body), not an idle timeout: a
 * receiver that trickles a byte now and then is cut off at it all the same.
 */
export async function postWebhook(
  call: WebhookCall,
  signed: Record<string, string>,
  lookup: LookupFunction,
  timeoutMs: number,
): Promise<WebhookAnswer> {
  const res = await sendHttp({
    method: 'POST',
    url: call.url,
    headers: {
      'content-type': call.contentType,
      'content-length': String(Buffer.byteLength(call.body)),
      'x-webhook-id': call.deliveryId,
      'x-webhook-attempt': String(call.attempt),
      ...signed,
    },
    body: call.body,
    timeoutMs,
    lookup,
    maxResponseBytes: READ_BYTES,
    oversize: 'truncate',
  });
  const retryAfter = res.headers['retry-after'];
  return { status: res.status, text: res.text, retryAfter };
}
