import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { refusedAddress, type AddressPolicy } from '../domain/network-address';

/*
 * Where a webhook may be sent: the policy (src/domain/network-address.ts) applied to a URL's host,
 * when the URL is set (the use case checking it) and at every call (the lookup below), since DNS can
 * change in between.
 */

/** The host of a URL without an IPv6 literal's brackets. */
export const urlHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** Why an address literal may not be called, or null (also null for a name: that is judged by the lookup). */
export function refusedLiteral(host: string, policy: AddressPolicy): string | null {
  return net.isIP(host) ? refusedAddress(host, policy) : null;
}

/**
 * Why a name may not be called, from what it resolves to now (`<address>, <why>`), or null. A name
 * that does not resolve yet passes: the merchant may publish it later, and every call checks it again.
 */
export async function refusedResolution(host: string, policy: AddressPolicy): Promise<string | null> {
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  for (const a of addresses) {
    const refused = refusedAddress(a.address, policy);
    if (refused) return `${a.address}, ${refused}`;
  }
  return null;
}

/** Resolves the host and refuses addresses outside the policy; the connection uses exactly what was checked. */
export function policyLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses;
      const refused = list.map((a) => refusedAddress(a.address, policy)).find((r) => r !== null);
      if (refused || list.length === 0) {
        return callback(
          Object.assign(new Error(`webhook address refused: ${hostname} is ${refused ?? 'unresolvable'}`), {
            code: 'EREFUSEDADDR',
          }),
          '',
          0,
        );
      }
      if (options.all) return callback(null, list, 0);
      callback(null, list[0].address, list[0].family);
    });
  };
}
