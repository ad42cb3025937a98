import { describe, expect, it } from 'vitest';
import { LocalValidationError } from './api-errors.js';
import { fileNameFor } from './file-names.js';

describe(fileNameFor.name, () => {
  it.each([
    ['notes', 'MARKDOWN', 'notes.md'],
    ['page', 'HTML', 'page.html'],
    ['log', 'TEXT', 'log.txt'],
    ['v1.2', 'TEXT', 'v1.2.txt'],
    ['.hidden', 'TEXT', '.hidden.txt'],
  ] as const)("appends the kind's extension: %s (%s) → %s", (name, kind, expected) => {
    expect(fileNameFor(name, kind)).toBe(expected);
  });

  it.each([
    ['README.markdown', 'MARKDOWN'],
    ['index.HTM', 'HTML'],
    ['a.text', 'TEXT'],
  ] as const)('keeps a matching extension: %s', (name, kind) => {
    expect(fileNameFor(name, kind)).toBe(name);
  });

  it('refuses an extension of another kind', () => {
    expect(() => fileNameFor('notes.md', 'HTML')).toThrow(LocalValidationError);
  });
});
