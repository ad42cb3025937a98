import { describe, expect, it } from 'vitest';
import type { CookieToSet } from '../../visitor/viewer-answer.js';
import type { ViewerIdentity } from '../../visitor/viewer-identity.js';
import { OneSessionPolicy } from './one-session.policy.js';
import { PASS } from './gate-policy.js';
import { aVisit } from './visit.fixture.js';

const NEW_COOKIE: CookieToSet = { name: 'sd_browser', value: 'signed' };

function identityGiving(key: string, cookie: CookieToSet | null): ViewerIdentity {
  return { browserKey: () => ({ key, cookie }) } as unknown as ViewerIdentity;
}

describe(OneSessionPolicy.name, () => {
  it('leaves other links alone, handing out no session cookie', () => {
    const sut = new OneSessionPolicy(identityGiving('b1', NEW_COOKIE));
    const visit = aVisit();
    expect(sut.check(visit)).toBe(PASS);
    expect(visit.cookies).toEqual([]);
    expect(visit.browserKey).toBeNull();
  });

  it('passes the first browser, handing it the session cookie and noting its key for the admission', () => {
    const sut = new OneSessionPolicy(identityGiving('b1', NEW_COOKIE));
    const visit = aVisit({ share: { oneSession: true, sessionOwner: null } });
    expect(sut.check(visit)).toBe(PASS);
    expect(visit.cookies).toEqual([NEW_COOKIE]);
    expect(visit.browserKey).toBe('b1');
  });

  it('passes the owning browser again', () => {
    const sut = new OneSessionPolicy(identityGiving('b1', null));
    const visit = aVisit({ share: { oneSession: true, sessionOwner: 'b1' } });
    expect(sut.check(visit)).toBe(PASS);
    expect(visit.cookies).toEqual([]);
  });

  it('refuses any other browser, still handing it its session cookie', () => {
    const sut = new OneSessionPolicy(identityGiving('b2', NEW_COOKIE));
    const visit = aVisit({ share: { oneSession: true, sessionOwner: 'b1' } });
    expect(sut.check(visit)).toEqual({ kind: 'refused', outcome: 'SESSION_TAKEN' });
    expect(visit.cookies).toEqual([NEW_COOKIE]);
  });
});
