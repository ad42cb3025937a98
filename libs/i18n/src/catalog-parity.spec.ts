import { describe, expect, it } from 'vitest';
import { catalogProblems } from './catalog-parity.js';
import { formatMessage, placeholdersOf } from './message-format.js';

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

  it('refuses characters vue-i18n reads as syntax', () => {
    expect(catalogProblems({ en: { a: 'mail me @ home' } }, 'en')).toEqual(['en: a contains @, | or $']);
  });
});

describe(formatMessage.name, () => {
  it('fills named placeholders and leaves unknown ones visible', () => {
    expect(formatMessage('{n} of {total} – {gap}', { n: 1, total: 3 })).toBe('1 of 3 – {gap}');
    expect(placeholdersOf('{b} {a} {b}')).toEqual(['a', 'b']);
  });
});
