import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeFeed, ChangeTopic } from '../../database/change-feed.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { ApiTokensRepository, TokenByPrefix } from './api-tokens.repository.js';
import { ApiTokensService } from './api-tokens.service.js';
import { sha256Hex } from '../secrets.js';
import { TokenIdentityCache } from './token-identity-cache.js';

class FakeFeed {
  live = true;
  private readonly listeners = new Map<ChangeTopic, Array<(key: string | null) => void>>();
  subscribe(topic: ChangeTopic, listener: (key: string | null) => void) {
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), listener]);
    return () => undefined;
  }
  announce(topic: ChangeTopic, key: string | null) {
    for (const listener of this.listeners.get(topic) ?? []) listener(key);
  }
}

/** The tokens table as the repository reads it, counting the reads. */
class TokensTable {
  rows = new Map<string, TokenByPrefix>();
  reads = 0;
  /** When set, reads wait for it (a load in flight). */
  gate: Promise<void> | null = null;

  async findLiveByPrefix(prefix: string): Promise<TokenByPrefix | null> {
    this.reads++;
    const snapshot = this.rows.get(prefix) ?? null;
    const copy = snapshot ? structuredClone(snapshot) : null;
    if (this.gate) await this.gate;
    return copy;
  }

  add(prefix: string, userId: string, overrides: Partial<TokenByPrefix> = {}) {
    const user = {
      id: userId,
      email: `${userId}@example.com`,
      segment: userId,
      quotaBytes: 1000,
      usedBytes: 0,
      emailVerified: true,
      hasPassword: true,
      twoFactorEnabled: false,
      isAdmin: false,
    };
    this.rows.set(prefix, {
      tokenId: `id-${prefix}`,
      secretHash: sha256Hex(`secret-${prefix}`),
      rateLimitPerMinute: 600,
      scopes: ['read', 'write'],
      expiresAt: null,
      user,
      actor: user,
      role: 'OWNER',
      ...overrides,
    });
  }
}

describe(TokenIdentityCache.name, () => {
  let table: TokensTable;
  let feed: FakeFeed;
  let sut: TokenIdentityCache;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    table = new TokensTable();
    feed = new FakeFeed();
    sut = new TokenIdentityCache(table as unknown as ApiTokensRepository, feed as unknown as ChangeFeed);
    table.add('aaa', 'u1');
    table.add('bbb', 'u1');
    table.add('ccc', 'u2');
  });
  afterEach(() => vi.useRealTimers());

  it('reads a token once, then answers from memory', async () => {
    expect((await sut.find('aaa'))?.tokenId).toBe('id-aaa');
    expect((await sut.find('aaa'))?.tokenId).toBe('id-aaa');
    expect(table.reads).toBe(1);
  });

  it('concurrent first calls share one read', async () => {
    const found = await Promise.all([sut.find('aaa'), sut.find('aaa'), sut.find('aaa')]);
    expect(found.map((token) => token?.tokenId)).toEqual(['id-aaa', 'id-aaa', 'id-aaa']);
    expect(table.reads).toBe(1);
  });

  it('keeps no unknown or revoked token: each call with one reads again', async () => {
    expect(await sut.find('zzz')).toBeNull();
    expect(await sut.find('zzz')).toBeNull();
    expect(table.reads).toBe(2);
    table.add('zzz', 'u3');
    expect((await sut.find('zzz'))?.tokenId).toBe('id-zzz');
  });

  it('a tokens notification drops that token only', async () => {
    await sut.find('aaa');
    await sut.find('ccc');
    table.rows.delete('aaa');
    feed.announce('tokens', 'aaa');
    expect(await sut.find('aaa')).toBeNull();
    expect((await sut.find('ccc'))?.tokenId).toBe('id-ccc');
    expect(table.reads).toBe(3);
  });

  it("an accounts notification drops every token of that account, and only that account's", async () => {
    await Promise.all([sut.find('aaa'), sut.find('bbb'), sut.find('ccc')]);
    for (const prefix of ['aaa', 'bbb']) table.rows.get(prefix)!.user.usedBytes = 700;
    feed.announce('accounts', 'u1');
    expect((await sut.find('aaa'))?.user.usedBytes).toBe(700);
    expect((await sut.find('bbb'))?.user.usedBytes).toBe(700);
    expect((await sut.find('ccc'))?.user.usedBytes).toBe(0);
    expect(table.reads).toBe(5);
  });

  it('a read in flight when its account changes is answered but never kept', async () => {
    let open!: () => void;
    table.gate = new Promise((resolve) => (open = resolve));
    const inFlight = sut.find('aaa');
    table.rows.get('aaa')!.user.quotaBytes = 5;
    feed.announce('accounts', 'u1');
    open();
    expect((await inFlight)?.user.quotaBytes).toBe(1000);
    table.gate = null;
    expect((await sut.find('aaa'))?.user.quotaBytes).toBe(5);
  });

  it('serves nothing from memory while the feed is down, and starts over when it is back', async () => {
    await sut.find('aaa');
    feed.live = false;
    table.rows.get('aaa')!.scopes = ['read'];
    expect((await sut.find('aaa'))?.scopes).toEqual(['read']);
    expect((await sut.find('aaa'))?.scopes).toEqual(['read']);
    expect(table.reads).toBe(3);
    table.rows.get('aaa')!.scopes = ['write'];
    feed.live = true;
    feed.announce('tokens', null);
    feed.announce('accounts', null);
    expect((await sut.find('aaa'))?.scopes).toEqual(['write']);
    expect(table.reads).toBe(4);
  });

  it('reads again after the TTL even without a notification', async () => {
    await sut.find('aaa');
    vi.advanceTimersByTime(TokenIdentityCache.ttlMs + 1);
    await sut.find('aaa');
    expect(table.reads).toBe(2);
  });

  it('forgetToken and forgetUser drop what this process changed itself', async () => {
    await Promise.all([sut.find('aaa'), sut.find('bbb'), sut.find('ccc')]);
    sut.forgetToken('ccc');
    sut.forgetUser('u1');
    expect(sut.size).toBe(0);
  });
});

describe(`${ApiTokensService.name} with the identity cache`, () => {
  afterEach(() => vi.useRealTimers());

  it('judges expiry against the clock at each use, not when the token was read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-05-01T10:00:00Z'));
    const table = new TokensTable();
    table.add('abcdefghijkl', 'u1', { expiresAt: Date.parse('2026-05-01T10:00:30Z') });
    const repository = Object.assign(table, { touchLastUsed: async () => undefined });
    const cache = new TokenIdentityCache(repository as unknown as ApiTokensRepository, new FakeFeed() as unknown as ChangeFeed);
    const sut = new ApiTokensService({} as never, repository as unknown as ApiTokensRepository, {} as AuditLog, cache);
    const plaintext = `shd_abcdefghijkl_${'s'.repeat(43)}`;
    table.rows.get('abcdefghijkl')!.secretHash = sha256Hex('s'.repeat(43));

    expect(await sut.authenticate(plaintext)).toMatchObject({ tokenId: 'id-abcdefghijkl' });
    vi.setSystemTime(new Date('2026-05-01T10:00:30Z'));
    expect(await sut.authenticate(plaintext)).toBe('expired');
    expect(table.reads).toBe(1);
    expect(await sut.authenticate(`shd_abcdefghijkl_${'t'.repeat(43)}`)).toBe('invalid');
  });
});
