import { describe, expect, it } from 'vitest';
import { ACCEPTED_EXTENSIONS, DEFAULT_EXTENSION, extensionOf, FILE_KINDS, kindOfName } from './file-kinds.js';

describe(kindOfName.name, () => {
  it.each([
    ['notes.md', 'MARKDOWN'],
    ['NOTES.MARKDOWN', 'MARKDOWN'],
    ['page.htm', 'HTML'],
    ['page.Html', 'HTML'],
    ['log.text', 'TEXT'],
    ['archive.tar.txt', 'TEXT'],
  ])('gives %s the kind %s', (name, kind) => {
    expect(kindOfName(name)).toBe(kind);
  });

  it.each(['report.zip', 'movie.mp4', 'setup.exe', 'README', '.md', 'notes.md.'])('refuses %s', (name) => {
    expect(kindOfName(name)).toBeNull();
  });
});

describe(extensionOf.name, () => {
  it('keeps the dot, lower-cases, and sees no extension in a leading dot', () => {
    expect(extensionOf('a.B.MD')).toBe('.md');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('plain')).toBe('');
  });
});

describe('DEFAULT_EXTENSION', () => {
  it('gives every kind an accepted extension of that kind', () => {
    for (const kind of FILE_KINDS) {
      expect(ACCEPTED_EXTENSIONS).toContain(DEFAULT_EXTENSION[kind]);
      expect(kindOfName(`x${DEFAULT_EXTENSION[kind]}`)).toBe(kind);
    }
  });
});
