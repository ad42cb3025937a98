import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../../auth/auth-context.js';
import type { ViewerIdentity } from '../../visitor/viewer-identity.js';
import { PASS } from './gate-policy.js';
import { LoginPolicy } from './login.policy.js';
import { aUser, aVisit } from './visit.fixture.js';

function identityWith(user: AuthUser | null): { identity: ViewerIdentity; asked: () => number } {
  let asked = 0;
  const identity = {
    user: async () => {
      asked++;
      return user;
    },
  } as unknown as ViewerIdentity;
  return { identity, asked: () => asked };
}

describe(LoginPolicy.name, () => {
  it('does not look for an account when the link does not ask for one', async () => {
    const { identity, asked } = identityWith(aUser());
    const sut = new LoginPolicy(identity);
    const visit = aVisit();
    expect(await sut.check(visit)).toBe(PASS);
    expect(asked()).toBe(0);
    expect(visit.user).toBeNull();
  });

  it('asks an anonymous visitor of a login link to sign in', async () => {
    const sut = new LoginPolicy(identityWith(null).identity);
    expect(await sut.check(aVisit({ share: { requireLogin: true } }))).toEqual({ kind: 'sign-in' });
  });

  it('passes a signed-in visitor and notes the account for the later policies', async () => {
    const user = aUser();
    const sut = new LoginPolicy(identityWith(user).identity);
    const visit = aVisit({ share: { requireLogin: true } });
    expect(await sut.check(visit)).toBe(PASS);
    expect(visit.user).toBe(user);
  });
});
