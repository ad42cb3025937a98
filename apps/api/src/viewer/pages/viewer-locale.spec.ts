import { catalogProblems } from '@sharedown/i18n';
import { describe, expect, it } from 'vitest';
import { negotiateLocale } from './viewer-locale.js';
import { VIEWER_CATALOGS } from './viewer-text.js';

describe(negotiateLocale.name, () => {
  it('takes the best language of Accept-Language that the viewer speaks', () => {
    expect(negotiateLocale(undefined, 'de-DE,de;q=0.9,en;q=0.8', 'zh-CN')).toBe('de');
    expect(negotiateLocale(undefined, 'fr-CA, fr;q=0.9', 'zh-CN')).toBe('fr');
    expect(negotiateLocale(undefined, 'ja', 'en')).toBe('ja');
    expect(negotiateLocale(undefined, 'pt-BR, es;q=0.5, en;q=0.4', 'zh-CN')).toBe('es');
    expect(negotiateLocale(undefined, 'en-US;q=0.5, zh;q=0.9', 'en')).toBe('zh-CN');
  });

  it('reads any Chinese as the Chinese it has', () => {
    expect(negotiateLocale(undefined, 'zh-TW', 'en')).toBe('zh-CN');
    expect(negotiateLocale(undefined, 'zh-Hans-CN', 'en')).toBe('zh-CN');
  });

  it('falls back to the default without a header, for a wildcard and for languages it does not speak', () => {
    expect(negotiateLocale(undefined, undefined, 'fr')).toBe('fr');
    expect(negotiateLocale(undefined, '', 'zh-CN')).toBe('zh-CN');
    expect(negotiateLocale(undefined, '*', 'de')).toBe('de');
    expect(negotiateLocale(undefined, 'ko-KR, pt', 'es')).toBe('es');
    expect(negotiateLocale(undefined, 'garbage;;;q=x', 'zh-CN')).toBe('zh-CN');
  });

  it("prefers the visitor's own switch over the browser, and ignores a cookie it does not know", () => {
    expect(negotiateLocale('ja', 'de', 'zh-CN')).toBe('ja');
    expect(negotiateLocale('klingon', 'de', 'zh-CN')).toBe('de');
  });
});

describe('viewer catalogs', () => {
  it('say the same things in every language: same keys, same placeholders, no empty text', () => {
    expect(catalogProblems(VIEWER_CATALOGS, 'zh-CN')).toEqual([]);
  });
});
