import { describe, expect, it } from 'vitest';
import { maskedIpPrefix, throttleKeyOf } from './client-address.js';

describe(throttleKeyOf.name, () => {
  it('keeps an IPv4 address whole, also when it arrives IPv4-mapped', () => {
    expect(throttleKeyOf('198.51.100.7')).toBe('198.51.100.7');
    expect(throttleKeyOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(throttleKeyOf('::ffff:c633:6407')).toBe('198.51.100.7');
  });

  it('counts every address of one IPv6 /64 as one client, however it is written', () => {
    const key = throttleKeyOf('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(throttleKeyOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(throttleKeyOf('2001:DB8:1:2:a::b')).toBe(key);
    expect(throttleKeyOf('2001:db8:1:3::1')).not.toBe(key);
    expect(throttleKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(throttleKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('leaves what is not an address as it is', () => {
    expect(throttleKeyOf('unknown')).toBe('unknown');
  });
});

describe(maskedIpPrefix.name, () => {
  it('masks IPv4 to its /24', () => {
    expect(maskedIpPrefix('198.51.100.7')).toBe('198.51.100.0/24');
    expect(maskedIpPrefix('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
  });

  it('masks IPv6 to its /48', () => {
    expect(maskedIpPrefix('2001:db8:1:2::1')).toBe('2001:db8:1::/48');
    expect(maskedIpPrefix('2001:0DB8:0000:0002::1')).toBe('2001:db8:0::/48');
    expect(maskedIpPrefix('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe('ffff:ffff:ffff::/48');
  });

  it('never echoes something that is not an address', () => {
    expect(maskedIpPrefix('unknown')).toBe('unknown');
    expect(maskedIpPrefix('<script>')).toBe('unknown');
  });
});
