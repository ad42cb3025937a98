import { describe, expect, it } from 'vitest';
import { detectLocale } from '../i18n';
import en from '../i18n/en';
import zh from '../i18n/zh';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();
}

describe('messages', () => {
  it('has the same keys in Chinese and English', () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
  });

  it('uses the same placeholders in both languages', () => {
    const lookup = (tree: unknown, path: string) =>
      path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], tree);
    for (const key of keys(en)) {
      expect(placeholders(lookup(zh, key) as string), key).toEqual(placeholders(lookup(en, key) as string));
    }
  });

  it('avoids characters vue-i18n would read as syntax', () => {
    for (const tree of [en, zh]) {
      for (const key of keys(tree)) {
        const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree) as string;
        expect(text, key).not.toMatch(/[@|$]/);
      }
    }
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
