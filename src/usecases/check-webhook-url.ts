import dns from 'node:dns/promises';
import net from 'node:net';
import { productionLike, type Config } from '../config';
import { refusedAddress, type AddressPolicy } from '../domain/network-address';

/** The address policy configuration gives (the worker builds the same one for call-time checks). */
export function webhookAddressPolicy(config: Config): AddressPolicy {
  return {
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK ?? !productionLike(config.GATEWAY_ENV),
    requireHttps: config.GATEWAY_ENV === 'production',
    allowedRanges: config.WEBHOOK_ALLOWED_PRIVATE_RANGES.split(',')
      .map((r) => r.trim())
      .filter(Boolean),
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    const refused = refusedAddress(host, policy);
    return refused ? `${host} is ${refused}` : null;
  }
  // A name that does not resolve yet is accepted: the merchant may publish it later, and every
  // call checks what it resolves to then.
  const addresses = await dns.lookup(host, { all: true }).catch(() => []);
  for (const a of addresses) {
    const refused = refusedAddress(a.address, policy);
    if (refused) return `${host} resolves to ${a.address}, ${refused}`;
  }
  return null;
}
