import { strict as assert } from 'node:assert';
import ipaddr from 'ipaddr.js';
import { addressLimitKey, refusedAddress, refusedPlainHttp } from '../../src/domain/network-address';
import { refusedWebhookUrl } from '../../src/usecases/check-webhook-url';

describe('webhook address rules', () => {
  const strict = { allowLoopback: false, allowedRanges: [] };
  it('refuses loopback, private, link-local, CGNAT, metadata and mapped forms', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '169.254.169.254',
      'fd00:ec2::254',
      // IPv4-compatible IPv6 (::/96) and NAT64 (64:ff9b::/96, 64:ff9b:1::/48) reach their IPv4 address.
      '::7f00:1',
      '::a9fe:a9fe',
      '::808:808',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::a00:1',
    ]) {
      assert.notEqual(refusedAddress(a, strict), null, a);
    }
  });
  it('allows public addresses, and loopback or listed ranges only when configured; metadata never', () => {
    assert.equal(refusedAddress('203.0.113.7'.replace('203.0.113', '8.8.8'), strict), null);
    assert.equal(refusedAddress('2606:4700:4700::1111', strict), null);
    assert.equal(refusedAddress('127.0.0.1', { allowLoopback: true, allowedRanges: [] }), null);
    assert.equal(refusedAddress('::1', { allowLoopback: true, allowedRanges: [] }), null);
    assert.equal(refusedAddress('64:ff9b::808:808', strict), null, 'NAT64 of a public address');
    assert.equal(refusedAddress('10.1.2.3', { allowLoopback: false, allowedRanges: ['10.0.0.0/8'] }), null);
    assert.equal(
      refusedAddress('169.254.169.254', { allowLoopback: true, allowedRanges: ['169.254.0.0/16'] }),
      'a cloud metadata address',
    );
  });
  it('per-address limits key an IPv6 client on its /64, an IPv4 (or mapped) one on its address', () => {
    assert.equal(addressLimitKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressLimitKey('2001:db8:1:2::9'), addressLimitKey('2001:db8:1:2:ffff::1'));
    assert.notEqual(addressLimitKey('2001:db8:1:2::9'), addressLimitKey('2001:db8:1:3::9'));
    assert.equal(addressLimitKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(addressLimitKey('203.0.113.7'), '203.0.113.7');
  });
  it("keys every spelling of an IPv4 address as ipaddr's canonical form, the dotted fast path included", () => {
    const canonical = (a: string) => {
      const ip = ipaddr.parse(a);
      return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()
        ? (ip as ipaddr.IPv6).toIPv4Address().toString()
        : ip.toString();
    };
    for (const a of [
      '127.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '10.20.30.40',
      '::ffff:127.0.0.1',
      '::FFFF:10.0.0.9',
      '010.0.0.1',
      '0x7f.0.0.1',
      '127.1',
    ])
      assert.equal(addressLimitKey(a), canonical(a), a);
    // Not addresses: kept as they are, whatever they look like.
    for (const a of ['256.0.0.1', '1.2.3', '1.2.3.4.5', 'unknown', '::ffff:1.2.3.256'])
      assert.equal(addressLimitKey(a), ipaddr.isValid(a) ? canonical(a) : a, a);
  });
  it('production takes only https webhook and return URLs; other environments take http too', async () => {
    assert.equal(refusedPlainHttp('http://shop.example/return', 'production'), 'must be https in production');
    assert.equal(refusedPlainHttp('HTTP://shop.example/return', 'production'), 'must be https in production');
    assert.equal(refusedPlainHttp('https://shop.example/return', 'production'), null);
    for (const env of ['development', 'test', 'staging']) assert.equal(refusedPlainHttp('http://shop.example/r', env), null, env);
    const production = { ...strict, requireHttps: true };
    assert.equal(await refusedWebhookUrl('http://8.8.8.8/hook', production), 'must be https in production');
    assert.equal(await refusedWebhookUrl('https://8.8.8.8/hook', production), null);
    assert.equal(await refusedWebhookUrl('http://8.8.8.8/hook', strict), null);
  });
});
