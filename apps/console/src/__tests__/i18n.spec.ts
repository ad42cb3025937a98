import { catalogProblems } from '@sharedown/i18n';
import { describe, expect, it } from 'vitest';
import { detectLocale } from '../i18n';
import en from '../i18n/en';
import zh from '../i18n/zh';

describe('messages', () => {
  it('say the same things in every language: same keys, same placeholders, no empty text, no vue-i18n syntax', () => {
    expect(catalogProblems({ en, zh }, 'en')).toEqual([]);
  });
});

describe('detectLocale', () => {
  it('prefers a saved choice', () => {
    expect(detectLocale('en', ['zh-CN'])).toBe('en');
    expect(detectLocale('zh', ['en-US'])).toBe('zh');
  });

  it('takes the first browser language it speaks', () => {
    expect(detectLocale(null, ['zh-TW', 'en'])).toBe('zh');
    expect(detectLocale(null, ['fr-FR', 'en-GB', 'zh'])).toBe('en');
    expect(detectLocale(null, ['de'])).toBe('en');
    expect(detectLocale('klingon', ['zh-Hans'])).toBe('zh');
  });
});
