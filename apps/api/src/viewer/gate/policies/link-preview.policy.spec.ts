import { describe, expect, it } from 'vitest';
import { PASS } from './gate-policy.js';
import { LinkPreviewPolicy } from './link-preview.policy.js';
import { aVisit } from './visit.fixture.js';

describe(LinkPreviewPolicy.name, () => {
  const sut = new LinkPreviewPolicy();

  it('passes a browser', () => {
    expect(sut.check(aVisit())).toBe(PASS);
    expect(sut.check(aVisit({ request: { userAgent: 'curl/8.5.0' } }))).toBe(PASS);
  });

  it('tells HEAD that the link exists, and nothing more', () => {
    expect(sut.check(aVisit({ request: { method: 'HEAD' } }))).toEqual({ kind: 'link-exists' });
  });

  it.each([
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Microsoft Office Existence Discovery',
    'TelegramBot (like TwitterBot)',
  ])('gives the preview agent %s a neutral page', (userAgent) => {
    expect(sut.check(aVisit({ request: { userAgent } }))).toEqual({ kind: 'link-preview' });
    expect(sut.check(aVisit({ request: { userAgent, method: 'POST', form: { action: 'reveal' } } }))).toEqual({
      kind: 'link-preview',
    });
  });
});
