import { describe, expect, it } from 'vitest';
import { PASS } from './gate-policy.js';
import { RevealPolicy } from './reveal.policy.js';
import { aVisit } from './visit.fixture.js';

describe(RevealPolicy.name, () => {
  const sut = new RevealPolicy();
  const reveal = { method: 'POST', form: { action: 'reveal' } };

  it('passes a GET of a link without a reveal step', () => {
    expect(sut.check(aVisit())).toBe(PASS);
  });

  it('sends a form posted to a link without a reveal step back to the link', () => {
    expect(sut.check(aVisit({ request: reveal }))).toEqual({ kind: 'back-to-link' });
  });

  it.each([{ oneTime: true }, { burnAfterRead: true }])('shows the reveal step of %o to a GET, and passes the click', (share) => {
    expect(sut.check(aVisit({ share }))).toEqual({ kind: 'reveal' });
    expect(sut.check(aVisit({ share, request: { method: 'POST', form: { action: 'other' } } }))).toEqual({ kind: 'reveal' });
    expect(sut.check(aVisit({ share, request: reveal }))).toBe(PASS);
  });

  it('takes the password typed in this request as the click', () => {
    const visit = aVisit({ share: { oneTime: true }, request: { method: 'POST', form: { action: 'password' } } });
    visit.passwordTyped = true;
    expect(sut.check(visit)).toBe(PASS);
  });
});
