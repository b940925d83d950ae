import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** Development and tests deliver to receivers on loopback. */
  allowLoopback: boolean;
  /** Private ranges an operator explicitly allows (CIDR). */
  allowedRanges: string[];
  /** Production: webhook URLs must be https (an http one sends payer data and signatures in clear). */
  requireHttps?: boolean;
}

/**
 * Production takes only https addresses where payer data or a signed result travels: webhook URLs
 * and checkout return URLs (the payer's browser would post the signed result in clear). Null, or why not.
 */
export function refusedPlainHttp(url: string, gatewayEnv: string): string | null {
  return gatewayEnv === 'production' && /^http:/i.test(url) ? 'must be https in production' : null;
}

/** Cloud metadata endpoints: never a webhook target, whatever the policy allows. */
const METADATA = ['169.254.169.254', 'fd00:ec2::254'];

/**
 * Why a resolved address may not receive webhooks, or null when it may. IPv4-mapped IPv6 counts as
 * its IPv4 address; loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges
 * are refused unless the policy allows them (metadata addresses never).
 */
export function refusedAddress(address: string, policy: AddressPolicy): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    // IPv4-compatible (::a.b.c.d, deprecated) reaches a.b.c.d on some stacks: never a webhook target.
    if (v6.match(ipaddr.parseCIDR('::/96')) && !['unspecified', 'loopback'].includes(v6.range()))
      return 'an IPv4-compatible IPv6 address';
    // NAT64 (64:ff9b::/96, 64:ff9b:1::/48) reaches its embedded IPv4 address: judged as that address.
    if (v6.match(ipaddr.parseCIDR('64:ff9b::/96')) || v6.match(ipaddr.parseCIDR('64:ff9b:1::/48'))) ip = embeddedIPv4(v6);
    else if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
  }
  if (METADATA.some((m) => ipaddr.parse(m).toNormalizedString() === ip.toNormalizedString())) return 'a cloud metadata address';
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback) return null;
  for (const cidr of policy.allowedRanges) {
    const [net, bits] = ipaddr.parseCIDR(cidr);
    if (net.kind() === ip.kind() && ip.match(net, bits)) return null;
  }
  return `a ${range} address`;
}

const embeddedIPv4 = (v6: ipaddr.IPv6) => new ipaddr.IPv4(v6.toByteArray().slice(12));

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** An IPv4 address in its one canonical spelling (no leading zeros), alone or IPv4-mapped; group 1 is it. */
const CANONICAL_IPV4 = new RegExp(`^(?:::ffff:)?(${OCTET}(?:\\.${OCTET}){3})$`, 'i');

/**
 * The key a per-client-address limit counts: an IPv4 address as it is (IPv4-mapped IPv6 as its
 * IPv4), an IPv6 address as its /64: one host or one subscriber usually holds a whole /64, so
 * keying on the full address would give it 2^64 budgets.
 */
export function addressLimitKey(address: string): string {
  // Every request pays for this key (the failed-authentication limit): a socket's address as Node
  // gives it, dotted IPv4 or its mapped form, needs no parse (ipaddr's is most of the cost).
  const dotted = CANONICAL_IPV4.exec(address);
  if (dotted) return dotted[1];
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
