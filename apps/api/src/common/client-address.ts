import { isIPv4 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** The client's address as Fastify resolved it (trustProxy decides whether X-Forwarded-For counts). */
export function clientKeyOf(request: FastifyRequest): string {
  return request.ip ?? 'unknown';
}

/**
 * The client as throttles count it: an IPv4 address, or an IPv6 /64 (one subscriber's network:
 * rotating through its addresses must not buy fresh buckets).
 */
export function throttleKeyOf(ip: string): string {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIPv4(v4) || !ip.includes(':')) return v4;
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

/** A masked network prefix: /24 for IPv4, /48 for IPv6. Never the full address. */
export function maskedIpPrefix(ip: string): string {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIPv4(v4)) {
    const parts = v4.split('.');
    return `${parts[0]}.${parts[1]}.${parts[2]}.0/24`;
  }
  const groups = expandIpv6(ip);
  return `${groups.slice(0, 3).join(':')}::/48`;
}

function expandIpv6(ip: string): string[] {
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = Math.max(0, 8 - left.length - right.length);
  return [...left, ...Array(missing).fill('0'), ...right].map((group) => group.replace(/^0+(?=.)/, '') || '0');
}
