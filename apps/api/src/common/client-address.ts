import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { BoundedMemo } from './bounded-memo.js';

/** The client's address as Fastify resolved it (trustProxy decides whether X-Forwarded-For counts). */
export function clientKeyOf(request: FastifyRequest): string {
  return request.ip ?? 'unknown';
}

/** The address, an IPv4-mapped IPv6 one as the IPv4 address it carries; null for anything that is not an address. */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // node:net is strict where ipaddr.js also takes "1" or "0x7f.1" for IPv4.
  return isIP(ip) === 0 ? null : ipaddr.process(ip);
}

/** The first `count` groups of an IPv6 address, as written in a prefix (lower-case hex, no leading zeros). */
function leadingGroups(address: ipaddr.IPv6, count: number): string {
  return address.parts
    .slice(0, count)
    .map((part) => part.toString(16))
    .join(':');
}

/**
 * The client as throttles count it: an IPv4 address, or an IPv6 /64 (one subscriber's network:
 * rotating through its addresses must not buy fresh buckets).
 */
export function throttleKeyOf(ip: string): string {
  const address = parseAddress(ip);
  if (address === null) return ip;
  return address.kind() === 'ipv4' ? address.toString() : `${leadingGroups(address as ipaddr.IPv6, 4)}::/64`;
}

// Every view masks its visitor's address several times (visitor key, webhook, visit log).
const maskedPrefixes = new BoundedMemo<string, string>(10_000);

/** A masked network prefix: /24 for IPv4, /48 for IPv6. Never the full address. */
export function maskedIpPrefix(ip: string): string {
  let prefix = maskedPrefixes.get(ip);
  if (prefix === undefined) maskedPrefixes.set(ip, (prefix = maskPrefix(ip)));
  return prefix;
}

function maskPrefix(ip: string): string {
  const address = parseAddress(ip);
  if (address === null) return 'unknown';
  if (address.kind() === 'ipv4') return `${(address as ipaddr.IPv4).octets.slice(0, 3).join('.')}.0/24`;
  return `${leadingGroups(address as ipaddr.IPv6, 3)}::/48`;
}
