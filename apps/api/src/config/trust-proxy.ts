import { isIP } from 'node:net';

/**
 * Which peers may speak for the client through X-Forwarded-For, -Proto and -Host, in the form
 * Fastify's `trustProxy` option takes: `false` (nobody, the default), `true` (any peer: only when
 * nothing can reach the service except through the proxy), a hop count, or a list of addresses
 * and CIDR ranges (plus proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = boolean | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** The parsed setting, or a message saying what is wrong with it. */
export function parseTrustProxy(raw: string): TrustProxy | string {
  const value = raw.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 32 ? hops : 'a hop count must be between 0 and 32';
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length)
    return `must be true, false, a hop count, or a comma-separated list of addresses/CIDRs (not: ${bad.join(', ')})`;
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The value for Fastify's `trustProxy`. A hop count becomes "trust the n nearest hops", as the
 * option has always meant (Fastify's own number handling now trusts nothing): it cannot check
 * who the nearest peer is, so it fits only a service that nobody reaches except through the proxy.
 */
export function fastifyTrustProxy(setting: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return hops === 0 ? false : (_address, hop) => hop < hops;
}
