import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../../auth/auth-context.js';
import { AllowlistPolicy } from './allowlist.policy.js';
import { PASS } from './gate-policy.js';
import { aUser, aVisit } from './visit.fixture.js';

describe(AllowlistPolicy.name, () => {
  const sut = new AllowlistPolicy();
  const listed = (user: AuthUser, emailAllowlist: string[] | null = ['reader@example.com']) => {
    const visit = aVisit({ share: { requireLogin: true, emailAllowlist } });
    visit.user = user;
    return sut.check(visit);
  };

  it('passes a link without a list', () => {
    expect(listed(aUser({ email: 'someone@example.com' }), null)).toBe(PASS);
  });

  it('passes a listed, proven address, whatever its case', () => {
    expect(listed(aUser({ email: 'Reader@Example.com' }))).toBe(PASS);
  });

  it('refuses an address that is not on the list', () => {
    expect(listed(aUser({ email: 'other@example.com' }))).toEqual({ kind: 'not-listed', email: 'other@example.com' });
  });

  it('offers verification to an unproven address before looking at the list, listed or not', () => {
    const listedButUnproven = aUser({ emailVerified: false });
    expect(listed(listedButUnproven)).toEqual({ kind: 'unverified', user: listedButUnproven });
    const unlistedAndUnproven = aUser({ email: 'other@example.com', emailVerified: false });
    expect(listed(unlistedAndUnproven)).toEqual({ kind: 'unverified', user: unlistedAndUnproven });
  });
});
