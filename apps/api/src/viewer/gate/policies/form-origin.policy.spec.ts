import { describe, expect, it } from 'vitest';
import { FormOriginPolicy } from './form-origin.policy.js';
import { PASS } from './gate-policy.js';
import { aVisit } from './visit.fixture.js';

describe(FormOriginPolicy.name, () => {
  const sut = new FormOriginPolicy();

  it('passes a form from this service and any GET', () => {
    expect(sut.check(aVisit({ request: { method: 'POST', sameOrigin: true } }))).toBe(PASS);
    expect(sut.check(aVisit({ request: { method: 'GET', sameOrigin: false } }))).toBe(PASS);
  });

  it('refuses a form posted from another site', () => {
    expect(sut.check(aVisit({ request: { method: 'POST', sameOrigin: false } }))).toEqual({ kind: 'foreign-form' });
  });
});
