import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** Development and tests deliver to receivers on loopback. */
  allowLoopback: boolean;
  /** Private ranges an operator explicitly allows (CIDR). */
  allowedRanges: string[];
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
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
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
