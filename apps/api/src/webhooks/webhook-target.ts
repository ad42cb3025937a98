import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { LIMITS } from '@sharedown/contract/limits';

export const MAX_WEBHOOK_URL_LENGTH = LIMITS.webhookUrl;

/** Why a URL cannot be a webhook target; the message is shown to the user. */
export class WebhookTargetError extends Error {}

/** The target resolves to an address the service must not call (SSRF). */
export class ForbiddenTargetError extends WebhookTargetError {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`url 指向内网、回环、链路本地或保留地址（${host} → ${address}），已拒绝`);
  }
}

/** Checks the URL's form: http(s), no credentials, a host, at most 2048 characters. */
export function parseWebhookUrl(raw: string): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new WebhookTargetError(`url 最长 ${MAX_WEBHOOK_URL_LENGTH} 个字符`);
  // URL() silently strips surrounding whitespace and tabs/newlines inside; the stored URL must be what is called.
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) throw new WebhookTargetError('url 不能包含空白或控制字符');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('url 必须是有效的 http 或 https 地址');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookTargetError('url 必须使用 http 或 https 协议');
  if (url.username || url.password) throw new WebhookTargetError('url 不能包含用户名或密码');
  if (!url.hostname) throw new WebhookTargetError('url 缺少主机名');
  return url;
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(groups: number[]): string | null {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return v4(groups[6]!, groups[7]!); // ::ffff:a.b.c.d, ::a.b.c.d
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6]!, groups[7]!); // 64:ff9b::/96
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!); // 2002::/16
  return null;
}

/** True for addresses a webhook may never reach: private, loopback, link-local, CGNAT, ULA, metadata, reserved. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const embedded = embeddedIpv4(ipaddr.IPv6.parse(address).parts);
  if (embedded !== null) return blocked.check(embedded, 'ipv4');
  return blocked.check(address.split('%')[0]!, 'ipv6');
}

/** URL hostnames keep IPv6 literals in brackets. */
export function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/**
 * Resolves the host and refuses it when any of its addresses is forbidden: a name that answers
 * with one public and one private address could be steered to the private one.
 */
export async function resolvePublicAddresses(host: string): Promise<LookupAddress[]> {
  if (isIP(host)) {
    if (isForbiddenAddress(host)) throw new ForbiddenTargetError(host, host);
    return [{ address: host, family: isIP(host) }];
  }
  const addresses = await resolveAll(host);
  if (addresses.length === 0) throw new WebhookTargetError(`无法解析 url 的主机名 ${host}`);
  const bad = addresses.find((entry) => isForbiddenAddress(entry.address));
  if (bad) throw new ForbiddenTargetError(host, bad.address);
  return addresses;
}

/**
 * A `lookup` for socket connects that checks the very addresses the socket will use, so a DNS
 * answer that changes between a check and the connect (rebinding) cannot reach a private address.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  resolvePublicAddresses(hostname).then(
    (addresses) => {
      const wanted =
        options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) {
        const error = Object.assign(new Error(`no IPv${options.family} address for ${hostname}`), { code: 'ENOTFOUND' });
        callback(error, '', 0);
      } else if (options.all) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, wanted);
      } else {
        callback(null, wanted[0]!.address, wanted[0]!.family);
      }
    },
    (error: NodeJS.ErrnoException) => callback(error, '', 0),
  );
};
