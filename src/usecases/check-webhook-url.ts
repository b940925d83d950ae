import type { Config } from '../config';
import type { AddressPolicy } from '../domain/network-address';
import { refusedLiteral, refusedResolution, urlHost } from '../outbound/checked-address';

/** The address policy configuration gives (the worker builds the same one for call-time checks). */
export function webhookAddressPolicy(config: Pick<Config, 'env' | 'webhooks'>): AddressPolicy {
  return {
    allowLoopback: config.webhooks.allowLoopback,
    requireHttps: config.env === 'production',
    allowedRanges: config.webhooks.allowedPrivateRanges,
  };
}

/**
 * Why a webhook URL may not be set, or null when it may: http(s) only, and every address its host
 * resolves to must pass the policy (checked again at call time, since DNS can change; a name that
 * does not resolve yet passes here and is judged when called).
 */
export async function refusedWebhookUrl(text: string, policy: AddressPolicy): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  if (policy.requireHttps && url.protocol === 'http:') return 'must be https in production';
  const host = urlHost(url);
  const literal = refusedLiteral(host, policy);
  if (literal) return `${host} is ${literal}`;
  const resolved = await refusedResolution(host, policy);
  return resolved ? `${host} resolves to ${resolved}` : null;
}
