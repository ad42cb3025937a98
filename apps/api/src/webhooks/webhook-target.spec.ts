import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import {
  ForbiddenTargetError,
  WebhookTargetError,
  isForbiddenAddress,
  parseWebhookUrl,
  publicOnlyLookup,
  resolvePublicAddresses,
} from './webhook-target.js';

describe(isForbiddenAddress.name, () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456:789a::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    'ff02::1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::',
  ])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe(parseWebhookUrl.name, () => {
  it('accepts http and https URLs', () => {
    expect(parseWebhookUrl('https://hooks.example.com/a?b=c').hostname).toBe('hooks.example.com');
    expect(parseWebhookUrl('http://example.com:8080/').port).toBe('8080');
  });

  it.each([
    ['ftp://example.com/', '协议'],
    ['javascript:alert(1)', '协议'],
    ['not a url', '空白'],
    ['example.com/hook', '有效'],
    ['https://user:pass@example.com/', '用户名'],
    ['https://user@example.com/', '用户名'],
    [' https://example.com/', '空白'],
    ['https://exa\tmple.com/', '空白'],
    [`https://example.com/${'a'.repeat(2048)}`, '2048'],
  ])('refuses %s', (raw, message) => {
    expect(() => parseWebhookUrl(raw)).toThrow(WebhookTargetError);
    expect(() => parseWebhookUrl(raw)).toThrow(message);
  });

  it('accepts exactly 2048 characters', () => {
    const base = 'https://example.com/';
    expect(() => parseWebhookUrl(base + 'a'.repeat(2048 - base.length))).not.toThrow();
  });
});

describe(resolvePublicAddresses.name, () => {
  it('refuses names that resolve to loopback', async () => {
    await expect(resolvePublicAddresses('localhost')).rejects.toBeInstanceOf(ForbiddenTargetError);
  });

  it('refuses private and metadata literals without a lookup', async () => {
    await expect(resolvePublicAddresses('169.254.169.254')).rejects.toBeInstanceOf(ForbiddenTargetError);
    await expect(resolvePublicAddresses('::ffff:127.0.0.1')).rejects.toBeInstanceOf(ForbiddenTargetError);
  });

  it('returns a public literal as is', async () => {
    await expect(resolvePublicAddresses('93.184.216.34')).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});

describe('publicOnlyLookup', () => {
  function lookup(host: string, options: { all?: boolean; family?: number }) {
    return new Promise<{ error: NodeJS.ErrnoException | null; result: string | LookupAddress[] }>((resolve) => {
      publicOnlyLookup(
        host,
        options as never,
        ((error: NodeJS.ErrnoException | null, result: string | LookupAddress[]) => resolve({ error, result })) as never,
      );
    });
  }

  it('fails the connect for a name that resolves to loopback, with or without `all`', async () => {
    for (const options of [{ all: true }, { all: false }, { family: 4 }]) {
      const { error } = await lookup('localhost', options);
      expect(error).toBeInstanceOf(ForbiddenTargetError);
    }
  });

  it('hands the socket only the checked public address', async () => {
    expect(await lookup('93.184.216.34', { all: true })).toEqual({
      error: null,
      result: [{ address: '93.184.216.34', family: 4 }],
    });
    expect(await lookup('93.184.216.34', {})).toEqual({ error: null, result: '93.184.216.34' });
  });
});
