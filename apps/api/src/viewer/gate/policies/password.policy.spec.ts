import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../auth/accounts/password-hasher.js';
import type { ShareViewRepository } from '../../share-view/share-view.repository.js';
import type { CookieToSet } from '../../visitor/viewer-answer.js';
import type { ViewerIdentity } from '../../visitor/viewer-identity.js';
import { PASS, type Visit } from './gate-policy.js';
import { PASSWORD_ATTEMPTS, PasswordPolicy } from './password.policy.js';
import { CountingLimiter, aVisit } from './visit.fixture.js';

const ACCESS: CookieToSet = { name: 'sd_access_1', value: 'sealed', maxAge: 43_200 };

describe(PasswordPolicy.name, () => {
  let hash: string;
  let limiter: CountingLimiter;
  let sut: PasswordPolicy;
  let granted: boolean;
  let unlocked: Array<{ id: string; passwordVersion: number }>;

  beforeAll(async () => {
    hash = await hashPassword('open sesame');
  });

  const setup = () => {
    limiter = new CountingLimiter();
    granted = false;
    unlocked = [];
    const identity = {
      hasAccess: () => granted,
      accessCookie: (share: { id: string; passwordVersion: number }) => (unlocked.push(share), ACCESS),
    } as unknown as ViewerIdentity;
    const repository = { password: async () => ({ hash, version: 7 }) } as unknown as ShareViewRepository;
    sut = new PasswordPolicy(identity, limiter, repository);
  };
  const posted = (password: string, share: NonNullable<Parameters<typeof aVisit>[0]>['share'] = {}): Visit =>
    aVisit({ share: { hasPassword: true, ...share }, request: { method: 'POST', form: { action: 'password', password } } });

  it('passes a link without a password, and a browser that gave it already', async () => {
    setup();
    expect(await sut.check(aVisit())).toBe(PASS);
    granted = true;
    expect(await sut.check(aVisit({ share: { hasPassword: true } }))).toBe(PASS);
    expect(limiter.levels.size).toBe(0);
  });

  it('asks for the password without taking an attempt', async () => {
    setup();
    expect(await sut.check(aVisit({ share: { hasPassword: true } }))).toEqual({ kind: 'password', wrong: false });
    const reveal = aVisit({ share: { hasPassword: true }, request: { method: 'POST', form: { action: 'reveal' } } });
    expect(await sut.check(reveal)).toEqual({ kind: 'password', wrong: false });
    expect(limiter.levels.size).toBe(0);
  });

  it.each(['wrong', '', 'x'.repeat(65)])('says %j is wrong, and sets no cookie', async (password) => {
    setup();
    const visit = posted(password);
    expect(await sut.check(visit)).toEqual({ kind: 'password', wrong: true });
    expect(visit.cookies).toEqual([]);
  });

  it('grants access with the right password and sends the visitor back to the link', async () => {
    setup();
    const visit = posted('open sesame');
    expect(await sut.check(visit)).toEqual({ kind: 'back-to-link' });
    expect(visit.cookies).toEqual([ACCESS]);
  });

  it('binds the unlock to the version of the password it proved, not to the gate row read before', async () => {
    setup();
    const visit = posted('open sesame', { passwordVersion: 6 });
    await sut.check(visit);
    expect(unlocked).toEqual([{ id: visit.share.id, passwordVersion: 7 }]);
  });

  it('counts the right password as the deliberate step of a reveal link', async () => {
    setup();
    for (const share of [{ oneTime: true }, { burnAfterRead: true }]) {
      const visit = posted('open sesame', share);
      expect(await sut.check(visit)).toBe(PASS);
      expect(visit.passwordTyped).toBe(true);
      expect(visit.cookies).toEqual([ACCESS]);
    }
  });

  it('throttles attempts per share and client, the right password included, and one /64 counts once', async () => {
    setup();
    for (let i = 0; i < PASSWORD_ATTEMPTS; i++) {
      const visit = posted('wrong');
      visit.request.ip = `2001:db8:1:2::${i + 1}`;
      expect(await sut.check(visit)).toEqual({ kind: 'password', wrong: true });
    }
    const last = posted('open sesame');
    last.request.ip = '2001:db8:1:2::ffff';
    expect(await sut.check(last)).toEqual({ kind: 'password-throttled', retryAfterSeconds: 600 });
    expect(last.cookies).toEqual([]);
    const elsewhere = posted('open sesame');
    elsewhere.request.ip = '2001:db8:1:3::1';
    expect(await sut.check(elsewhere)).toEqual({ kind: 'back-to-link' });
    const otherShare = posted('open sesame', { id: '00000000-0000-4000-8000-000000000002' });
    otherShare.request.ip = '2001:db8:1:2::ffff';
    expect(await sut.check(otherShare)).toEqual({ kind: 'back-to-link' });
  });
});
