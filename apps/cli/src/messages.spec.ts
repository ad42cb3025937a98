import { SCAN_STATUSES } from '@sharedown/contract';
import { catalogProblems, LOCALES } from '@sharedown/i18n';
import { describe, expect, it } from 'vitest';
import { CLI_MESSAGES, wordsOf } from './messages.js';
import { REQUEST_STATES } from './request-options.js';

describe('CLI_MESSAGES', () => {
  it('has a catalog for every language Sharedown speaks, each with the keys and placeholders of the English one', () => {
    expect(Object.keys(CLI_MESSAGES).sort()).toEqual([...LOCALES].sort());
    expect(catalogProblems(CLI_MESSAGES, 'en')).toEqual([]);
  });

  it('words every request state, review and scan status of the contract', () => {
    for (const locale of LOCALES) {
      const { requests } = CLI_MESSAGES[locale];
      expect(Object.keys(requests.states).sort(), locale).toEqual([...REQUEST_STATES].sort());
      expect(Object.keys(requests.reviews).sort(), locale).toEqual(['ACCEPTED', 'PENDING', 'REJECTED']);
      expect(Object.keys(requests.scans).sort(), locale).toEqual([...SCAN_STATUSES, 'purged'].sort());
    }
  });

  it('fills in values and picks plurals the language’s way', () => {
    const en = wordsOf('en');
    const closed = (count: number) => en.format(en.messages.requests.closedLine, { title: 'Policies', id: 'r1', count });
    expect(closed(0)).toContain('It received no uploads.');
    expect(closed(1)).toContain('The upload it received stays.');
    expect(closed(3)).toContain('The 3 uploads it received stay.');
    const de = wordsOf('de');
    expect(de.format(de.messages.requests.createdNote, { id: 'r1', max: 1, folder: 'd1' })).toMatch(/^Anfrage r1: ein Upload,/);
    expect(de.format(de.messages.requests.uploadCount, { count: 2, max: 5 })).toBe('2 von 5');
  });
});
