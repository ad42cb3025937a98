import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeFeed, ChangeTopic } from '../../database/change-feed.js';
import { aShare } from './policies/visit.fixture.js';
import { asksNothing, ShareGateCache } from './share-gate-cache.js';

/** A change feed whose liveness and notifications the test decides. */
function aFeed() {
  const listeners = new Map<ChangeTopic, Array<(key: string | null) => void>>();
  const feed = {
    live: true,
    subscribe(topic: ChangeTopic, listener: (key: string | null) => void) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), listener]);
      return () => undefined;
    },
    announce(topic: ChangeTopic, key: string | null) {
      for (const listener of listeners.get(topic) ?? []) listener(key);
    },
  };
  return feed;
}

function aCache() {
  const feed = aFeed();
  return { feed, cache: new ShareGateCache(feed as unknown as ChangeFeed) };
}

afterEach(() => vi.useRealTimers());

describe(ShareGateCache.name, () => {
  it('serves a kept gate row by token, in any case, and by the owner segment only', () => {
    const { cache } = aCache();
    const share = aShare({ token: 'AbC123', ownerSegment: 'alice' });
    cache.keep(share, cache.mark());
    expect(cache.find(null, 'abc123')).toBe(share);
    expect(cache.find('ALICE', 'AbC123')).toBe(share);
    expect(cache.find('bob', 'AbC123')).toBeNull();
    expect(cache.find(null, 'other')).toBeNull();
  });

  it.each(['shares', 'accounts'] as const)(
    'drops everything on a %s notification, and never keeps a read that started before it',
    (topic) => {
      const { cache, feed } = aCache();
      const share = aShare({ token: 'tok' });
      cache.keep(share, cache.mark());
      const mark = cache.mark();
      feed.announce(topic, 'someone');
      expect(cache.find(null, 'tok')).toBeNull();
      cache.keep(share, mark);
      expect(cache.find(null, 'tok')).toBeNull();
      cache.keep(share, cache.mark());
      expect(cache.find(null, 'tok')).toBe(share);
    },
  );

  it('drops everything when this process has written (clear), before its answer leaves', () => {
    const { cache } = aCache();
    cache.keep(aShare({ token: 'tok' }), cache.mark());
    const mark = cache.mark();
    cache.clear();
    expect(cache.find(null, 'tok')).toBeNull();
    cache.keep(aShare({ token: 'tok' }), mark);
    expect(cache.size).toBe(0);
  });

  it.each(['PENDING', 'SCAN_ERROR', 'INFECTED'] as const)(
    'never keeps a document whose scan status is %s (a worker writes its result), nor a one-time link',
    (scanStatus) => {
      const { cache } = aCache();
      cache.keep(aShare({ token: 'scanning', scanStatus }), cache.mark());
      cache.keep(aShare({ token: 'once', oneTime: true }), cache.mark());
      cache.keep(
        aShare({ token: 'collection', folderId: '00000000-0000-4000-8000-0000000000f1', scanStatus: null }),
        cache.mark(),
      );
      expect(cache.find(null, 'scanning')).toBeNull();
      expect(cache.find(null, 'once')).toBeNull();
      expect(cache.find(null, 'collection')).not.toBeNull();
    },
  );

  it('serves and keeps nothing while the change feed is not receiving', () => {
    const { cache, feed } = aCache();
    cache.keep(aShare({ token: 'tok' }), cache.mark());
    feed.live = false;
    expect(cache.find(null, 'tok')).toBeNull();
    cache.keep(aShare({ token: 'other' }), cache.mark());
    feed.live = true;
    expect(cache.find(null, 'other')).toBeNull();
  });

  it('judges expiry by the clock at each use, and forgets a row after its TTL', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const { cache } = aCache();
    cache.keep(aShare({ token: 'soon', expiresAt: Date.now() + 1_000 }), cache.mark());
    cache.keep(aShare({ token: 'later', expiresAt: null }), cache.mark());
    expect(cache.find(null, 'soon')).not.toBeNull();
    vi.advanceTimersByTime(1_000);
    expect(cache.find(null, 'soon')).toBeNull();
    expect(cache.find(null, 'later')).not.toBeNull();
    vi.advanceTimersByTime(ShareGateCache.ttlMs);
    expect(cache.find(null, 'later')).toBeNull();
  });
});

describe(asksNothing.name, () => {
  it('holds for a live link with nothing to ask, caps included (the admission judges them)', () => {
    expect(asksNothing(aShare())).toBe(true);
    expect(asksNothing(aShare({ watermarkEnabled: true, copyProtection: true }))).toBe(true);
  });

  it.each([
    { revoked: true },
    { trashed: true },
    { expired: true },
    { consumed: true },
    { ownerDisabled: true },
    { disabled: true },
    { scanStatus: 'PENDING' as const },
    { folderId: '00000000-0000-4000-8000-0000000000f1' },
    { hasPassword: true },
    { requireLogin: true },
    { emailAllowlist: ['a@example.com'] },
    { perLoginUserMaxVisits: 2 },
    { oneTime: true },
    { burnAfterRead: true },
    { oneSession: true },
    { agreementSha256: 'abc' },
  ])('leaves %o to the gate', (overrides) => {
    expect(asksNothing(aShare(overrides))).toBe(false);
  });
});

describe('asksNothing of a browser that proved the password', () => {
  it('holds for a live link whose only question is its password, and for one with none', () => {
    expect(asksNothing(aShare({ hasPassword: true }), true)).toBe(true);
    expect(asksNothing(aShare(), true)).toBe(true);
    expect(asksNothing(aShare({ hasPassword: true }))).toBe(false);
  });

  it.each([{ oneTime: true }, { requireLogin: true }, { agreementSha256: 'abc' }, { revoked: true }])(
    'leaves a password link that also has %o to the gate',
    (overrides) => {
      expect(asksNothing(aShare({ hasPassword: true, ...overrides }), true)).toBe(false);
    },
  );
});
