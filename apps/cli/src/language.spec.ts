import { describe, expect, it } from 'vitest';
import { messageLocale } from './language.js';

describe(messageLocale.name, () => {
  it('reads the language of the first of LC_ALL, LC_MESSAGES and LANG that is set', () => {
    expect(messageLocale({ LANG: 'de_DE.UTF-8' })).toBe('de');
    expect(messageLocale({ LC_ALL: 'ja_JP.UTF-8', LANG: 'fr_FR.UTF-8' })).toBe('ja');
    expect(messageLocale({ LC_ALL: '', LC_MESSAGES: 'es_ES', LANG: 'de_DE' })).toBe('es');
    expect(messageLocale({ LANG: 'fr' })).toBe('fr');
  });

  it('reads any Chinese as Chinese', () => {
    expect(messageLocale({ LANG: 'zh_CN.UTF-8' })).toBe('zh-CN');
    expect(messageLocale({ LANG: 'zh_TW.Big5' })).toBe('zh-CN');
  });

  it('falls back to English without a setting, for C and POSIX, and for languages it does not speak', () => {
    expect(messageLocale({})).toBe('en');
    expect(messageLocale({ LANG: 'C.UTF-8' })).toBe('en');
    expect(messageLocale({ LC_ALL: 'POSIX' })).toBe('en');
    expect(messageLocale({ LANG: 'pt_BR.UTF-8' })).toBe('en');
  });
});
