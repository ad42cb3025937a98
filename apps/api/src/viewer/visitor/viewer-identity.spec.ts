import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Runtime } from '../../common/runtime.js';
import type { ViewerRequest } from './viewer-answer.js';
import { VISITOR_COOKIE, ViewerIdentity } from './viewer-identity.js';

const SECRET = 'a'.repeat(48);

function identity(secret = SECRET): ViewerIdentity {
  // Visitor keys need only the secret; sessions and users serve sign-in, not used here.
  return new ViewerIdentity({ sessionSecret: secret } as Runtime, null as never);
}

function request(cookies: Record<string, string> = {}, ip = '203.0.113.7', userAgent = 'agent/1'): ViewerRequest {
  return {
    locale: 'zh-CN',
    method: 'GET',
    path: '/s/x/y',
    cookies,
    userAgent,
    ip,
    referer: undefined,
    form: {},
    sameOrigin: true,
    origin: 'http://localhost',
  };
}

describe('ViewerIdentity.visitorKey (remembered checks)', () => {
  it('gives a cookie-less visitor the same initial key and cookie each time, and its cookie verifies to that key', () => {
    const viewer = identity();
    const first = viewer.visitorKey(request());
    const again = viewer.visitorKey(request());
    expect(again).toEqual(first);
    expect(first.cookie?.name).toBe(VISITOR_COOKIE);
    const returning = viewer.visitorKey(request({ [VISITOR_COOKIE]: first.cookie!.value }));
    expect(returning).toEqual({ key: first.key, cookie: null });
    // Remembered: the second check of the same cookie answers the same.
    expect(viewer.visitorKey(request({ [VISITOR_COOKIE]: first.cookie!.value }))).toEqual({ key: first.key, cookie: null });
  });

  it('never takes a tampered or foreign cookie, even after the genuine one was remembered', () => {
    const viewer = identity();
    const genuine = viewer.visitorKey(request()).cookie!.value;
    viewer.visitorKey(request({ [VISITOR_COOKIE]: genuine }));
    const dot = genuine.lastIndexOf('.');
    const forged = `bforged${genuine.slice(1, dot)}${genuine.slice(dot)}`;
    const fromForged = viewer.visitorKey(request({ [VISITOR_COOKIE]: forged }, '198.51.100.9', 'other/2'));
    expect(fromForged.key).not.toBe(forged.slice(0, dot));
    expect(fromForged.cookie).not.toBeNull();
    const foreign = identity('b'.repeat(48)).visitorKey(request()).cookie!.value;
    expect(viewer.visitorKey(request({ [VISITOR_COOKIE]: foreign })).cookie).not.toBeNull();
  });

  it('keys different addresses and agents apart', () => {
    const viewer = identity();
    const a = viewer.visitorKey(request({}, '203.0.113.7', 'agent/1')).key;
    expect(viewer.visitorKey(request({}, '198.51.100.9', 'agent/1')).key).not.toBe(a);
    expect(viewer.visitorKey(request({}, '203.0.113.7', 'agent/2')).key).not.toBe(a);
  });
});

describe('ViewerIdentity.hasAccess (remembered checks)', () => {
  afterEach(() => vi.useRealTimers());

  const SHARE = { id: 'share-1', passwordVersion: 3 };

  it('opens the link its cookie names, for twelve hours, however often it was checked before; a forged one never', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const viewer = identity();
    const cookie = viewer.accessCookie(SHARE);
    const presenting = (value: string) => request({ [cookie.name]: value });
    expect(viewer.hasAccess(presenting(cookie.value), SHARE)).toBe(true);
    expect(viewer.hasAccess(presenting(cookie.value), SHARE)).toBe(true);
    expect(viewer.hasAccess(presenting(`${cookie.value}x`), SHARE)).toBe(false);
    expect(viewer.hasAccess(request(), SHARE)).toBe(false);
    expect(identity('b'.repeat(48)).hasAccess(presenting(cookie.value), SHARE)).toBe(false);
    vi.advanceTimersByTime(cookie.maxAge! * 1000 + 1000);
    expect(viewer.hasAccess(presenting(cookie.value), SHARE)).toBe(false);
  });

  it('opens only the password version it proved: a new password asks again, even from a remembered cookie', () => {
    const viewer = identity();
    const cookie = viewer.accessCookie(SHARE);
    const presenting = request({ [cookie.name]: cookie.value });
    expect(viewer.hasAccess(presenting, SHARE)).toBe(true);
    expect(viewer.hasAccess(presenting, { ...SHARE, passwordVersion: 4 })).toBe(false);
    expect(viewer.hasAccess(presenting, { ...SHARE, id: 'share-2' })).toBe(false);
  });

  it('takes an unlock sealed before versions existed as version 0', () => {
    const viewer = identity();
    const legacy = viewer.access.seal({ s: 'share-1' }, 3600);
    const presenting = request({ sd_access_share1: legacy });
    expect(viewer.hasAccess(presenting, { id: 'share-1', passwordVersion: 0 })).toBe(true);
    expect(viewer.hasAccess(presenting, { id: 'share-1', passwordVersion: 1 })).toBe(false);
  });
});
