import { describe, expect, it } from 'vitest';
import { PASS } from './gate-policy.js';
import { StatePolicy } from './state.policy.js';
import { aVisit } from './visit.fixture.js';

describe(StatePolicy.name, () => {
  const sut = new StatePolicy();

  it('passes a live share', () => {
    expect(sut.check(aVisit())).toBe(PASS);
  });

  it.each([
    [{ revoked: true }, { kind: 'refused', outcome: 'REVOKED' }],
    [{ ownerDisabled: true }, { kind: 'owner-disabled' }],
    [{ ownerDisabled: true, trashed: true, expired: true }, { kind: 'owner-disabled' }],
    [{ trashed: true }, { kind: 'trashed' }],
    [{ expired: true }, { kind: 'refused', outcome: 'EXPIRED' }],
    [{ consumed: true }, { kind: 'refused', outcome: 'CONSUMED' }],
  ])('stops a share with %o', (share, stop) => {
    expect(sut.check(aVisit({ share }))).toEqual(stop);
  });

  it('names revocation first when a share is gone in several ways', () => {
    expect(sut.check(aVisit({ share: { revoked: true, trashed: true, expired: true, consumed: true } }))).toEqual({
      kind: 'refused',
      outcome: 'REVOKED',
    });
  });

  it('names a disabling after a report before the revocation that comes with it', () => {
    expect(sut.check(aVisit({ share: { disabled: true, revoked: true, ownerDisabled: true, trashed: true } }))).toEqual({
      kind: 'share-disabled',
    });
  });
});
