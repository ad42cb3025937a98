import { ISSUE_CODES } from '@sharedown/contract';
import { catalogProblems } from '@sharedown/i18n';
import { describe, expect, it } from 'vitest';
import { detectLocale, messages } from '../i18n';

describe('messages', () => {
  it('say the same things in every language: same keys, same placeholders, no empty text, no vue-i18n syntax', () => {
    expect(catalogProblems(messages, 'en')).toEqual([]);
  });

  it('word every validation issue code of the contract', () => {
    for (const code of ISSUE_CODES) expect(messages.en.issues, code).toHaveProperty(code);
    for (const code of ISSUE_CODES.filter((code) => code !== 'MORE_ISSUES'))
      expect(messages.en.issueKinds, code).toHaveProperty(code);
  });
});

describe('detectLocale', () => {
  it('prefers a saved choice', () => {
    expect(detectLocale('en', ['zh-CN'])).toBe('en');
    expect(detectLocale('zh', ['en-US'])).toBe('zh');
    expect(detectLocale('ja', ['de-DE'])).toBe('ja');
  });

  it('takes the first browser language it speaks', () => {
    expect(detectLocale(null, ['zh-TW', 'en'])).toBe('zh');
    expect(detectLocale(null, ['pt-BR', 'fr-FR', 'en-GB', 'zh'])).toBe('fr');
    expect(detectLocale(null, ['de'])).toBe('de');
    expect(detectLocale(null, ['es-MX'])).toBe('es');
    expect(detectLocale(null, ['ja-JP', 'en'])).toBe('ja');
    expect(detectLocale('klingon', ['zh-Hans'])).toBe('zh');
  });

  it('falls back to English for languages it does not speak', () => {
    expect(detectLocale(null, ['ko-KR', 'pt'])).toBe('en');
    expect(detectLocale(null, [])).toBe('en');
  });
});
