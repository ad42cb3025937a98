import { RateLimiter, type RateDecision } from '../../../rate-limit/rate-limiter.js';
import type { AuthUser } from '../../../auth/auth-context.js';
import type { ViewedShare } from '../../share-view/share-view.repository.js';
import type { ViewerRequest } from '../../visitor/viewer-answer.js';
import { newVisit, type Visit } from './gate-policy.js';

/** Builders for the policies' unit tests: a plain, CLEAN, anonymous view unless told otherwise. */
export function aShare(overrides: Partial<ViewedShare> = {}): ViewedShare {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    ownerId: '00000000-0000-4000-8000-0000000000aa',
    ownerSegment: 'owner',
    token: 'tok123',
    fileId: '00000000-0000-4000-8000-0000000000f1',
    fileName: 'notes.md',
    fileKind: 'MARKDOWN',
    folderId: null,
    trashed: false,
    revoked: false,
    consumed: false,
    expired: false,
    hasPassword: false,
    passwordVersion: 0,
    oneTime: false,
    requireLogin: false,
    emailAllowlist: null,
    oneSession: false,
    sessionOwner: null,
    perLoginUserMaxVisits: null,
    watermarkEnabled: false,
    watermarkText: null,
    copyProtection: false,
    burnAfterRead: false,
    versionId: '00000000-0000-4000-8000-0000000000e1',
    scanStatus: 'CLEAN',
    notify: 'off',
    ownerDisabled: false,
    disabled: false,
    agreementSha256: null,
    agreementRequireName: false,
    expiresAt: null,
    ...overrides,
  };
}

export function aRequest(overrides: Partial<ViewerRequest> = {}): ViewerRequest {
  return {
    locale: 'zh-CN',
    method: 'GET',
    path: '/s/owner/tok123',
    cookies: {},
    userAgent: 'Mozilla/5.0',
    ip: '198.51.100.7',
    referer: undefined,
    form: {},
    sameOrigin: true,
    origin: 'http://127.0.0.1:8080',
    ...overrides,
  };
}

export function aUser(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    id: '00000000-0000-4000-8000-0000000000b1',
    email: 'reader@example.com',
    segment: 'reader',
    quotaBytes: 1,
    usedBytes: 0,
    emailVerified: true,
    hasPassword: true,
    twoFactorEnabled: false,
    isAdmin: false,
    ...overrides,
  };
}

export function aVisit(parts: { share?: Partial<ViewedShare>; request?: Partial<ViewerRequest> } = {}): Visit {
  return newVisit(aRequest(parts.request), aShare(parts.share), { key: 'visitor-key', cookie: null });
}

/** Rate buckets that never refill: counts what the policy takes, per key. */
export class CountingLimiter extends RateLimiter {
  readonly levels = new Map<string, number>();

  async consume(key: string, capacity: number): Promise<RateDecision> {
    const level = this.levels.get(key) ?? capacity;
    const allowed = level >= 1;
    this.levels.set(key, allowed ? level - 1 : level);
    return { allowed, remaining: allowed ? level - 1 : 0, retryAfterSeconds: allowed ? 0 : 600 };
  }

  async refund(): Promise<void> {}

  async sweep(): Promise<number> {
    return 0;
  }
}
