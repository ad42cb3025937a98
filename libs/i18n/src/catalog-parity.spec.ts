import { describe, expect, it } from 'vitest';
import { catalogProblems } from './catalog-parity.js';
import { formatMessage, placeholdersOf } from './message-format.js';
import { SHARED_MESSAGES, apiErrorText, issueText } from './shared-messages.js';

describe(catalogProblems.name, () => {
  it('finds nothing in catalogs that agree', () => {
    const sut = catalogProblems({ en: { a: { b: 'Hi {name}' } }, de: { a: { b: 'Hallo {name}' } } }, 'en');
    expect(sut).toEqual([]);
  });

  it('names missing and extra keys, empty values and other placeholders', () => {
    const sut = catalogProblems(
      { en: { a: 'One {n}', b: 'Two', c: 'Three' }, fr: { a: 'Un {count}', b: ' ', d: 'Quatre' } },
      'en',
    );
    expect(sut).toEqual([
      'fr: missing c',
      'fr: a has placeholders {count}, en has {n}',
      'fr: b is empty or not text',
      'fr: extra d',
    ]);
  });

  it('refuses a lazy plural in any language: a choice by the number says it properly', () => {
    const sut = catalogProblems(
      {
        en: { a: '{count} view(s)' },
        de: { a: '{count} Datei(en)' },
        es: { a: '{count} error(es)' },
        fr: { a: '{count} actif(s)' },
      },
      'en',
    );
    expect(sut).toEqual([
      'en: a writes a plural as “view(s)”: use {count, plural, …}',
      'de: a writes a plural as “Datei(en)”: use {count, plural, …}',
      'es: a writes a plural as “error(es)”: use {count, plural, …}',
      'fr: a writes a plural as “actif(s)”: use {count, plural, …}',
    ]);
    expect(catalogProblems({ en: { a: 'Choose (optional)' } }, 'en')).toEqual([]);
  });

  it('refuses a message that is not well-formed ICU', () => {
    expect(catalogProblems({ en: { a: '{count, plural, one {# file}}' } }, 'en')).toEqual([
      'en: a is not a well-formed message: plural {count} has no other case',
    ]);
  });

  it('refuses characters vue-i18n reads as syntax', () => {
    expect(catalogProblems({ en: { a: 'mail me @ home' } }, 'en')).toEqual(['en: a contains @, | or $']);
  });
});

describe(formatMessage.name, () => {
  it('fills named placeholders and leaves unknown ones visible', () => {
    expect(formatMessage('{n} of {total} – {gap}', { n: 1, total: 3 })).toBe('1 of 3 – {gap}');
    expect(placeholdersOf('{b} {a} {b}')).toEqual(['a', 'b']);
  });

  it('picks the wording by the language’s plural rules, exact numbers first, # as the number', () => {
    const views = '{count, plural, =0 {no views} one {# view} other {# views}}';
    expect([0, 1, 2, 1200].map((count) => formatMessage(views, { count }))).toEqual([
      'no views',
      '1 view',
      '2 views',
      '1,200 views',
    ]);
    const fr = '{count, plural, one {# lien actif} other {# liens actifs}}';
    expect(formatMessage(fr, { count: 0 }, 'fr')).toBe('0 lien actif');
    expect(formatMessage(fr, { count: 1500 }, 'fr')).toBe('1\u202f500 liens actifs');
    expect(formatMessage('{n} of {total, plural, one {# item} other {# items}}', { n: 1, total: 1 })).toBe('1 of 1 item');
    expect(placeholdersOf('{days, plural, one {# day until {date}} other {# days until {date}}}')).toEqual(['date', 'days']);
  });

  it('picks by a word, and keeps apostrophes and lone braces as text', () => {
    const kind = '{kind, select, folder {the folder’s files} other {the file}}';
    expect(formatMessage(kind, { kind: 'folder' })).toBe('the folder’s files');
    expect(formatMessage(kind, { kind: 'file' })).toBe('the file');
    expect(formatMessage("l'accès { ouvert } {name}", { name: 'x' })).toBe("l'accès { ouvert } x");
  });
});

describe('shared messages', () => {
  it('say the same things in every language', () => {
    expect(catalogProblems(SHARED_MESSAGES, 'en')).toEqual([]);
  });

  it('word an issue by its code and params, a MORE_ISSUES by the kind it sums up, an unknown code by the api text', () => {
    const sut = SHARED_MESSAGES.de;
    expect(issueText(sut, { code: 'UNCLOSED_TAG', message: '<div> 没有闭合', params: { tag: 'div' } })).toBe(
      '<div> wird nie geschlossen.',
    );
    expect(issueText(sut, { code: 'MORE_ISSUES', message: '…', params: { count: '3', code: 'DUPLICATE_ID' } })).toBe(
      '3 weitere nicht aufgeführt: doppelte ids.',
    );
    expect(issueText(sut, { code: 'SOMETHING_NEW', message: '新问题' })).toBe('新问题');
  });

  it('word an api error by its code, naming the field of a VALIDATION error', () => {
    const sut = SHARED_MESSAGES.fr;
    expect(apiErrorText(sut, { code: 'VALIDATION', field: 'slug' })).toBe(
      'Une partie de la saisie n’est pas valide. Vérifiez « slug ».',
    );
    expect(apiErrorText(sut, { code: 'RATE_LIMITED', retryAfterSeconds: 30 })).toContain('(nouvel essai dans 30 s)');
    expect(apiErrorText(sut, { code: 'UNHEARD_OF' })).toBe(sut.apiErrors.INTERNAL);
  });
});
