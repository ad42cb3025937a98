import { describe, expect, it } from 'vitest';
import { fileNameProblem, folderNameProblem, kindOfName, nfcName, numberedName } from './file-names.js';

// Bidi embeddings/overrides/isolates, zero-width and direction marks, word joiner and invisible
// operators, Arabic letter mark, Mongolian vowel separator, byte order mark.
const INVISIBLE = [
  ...range(0x202a, 0x202e),
  ...range(0x2066, 0x2069),
  ...range(0x200b, 0x200f),
  0x061c,
  0xfeff,
  ...range(0x2060, 0x2064),
  0x180e,
];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

// Characters that show nothing: Hangul fillers, braille blank, line and paragraph separators, the tag block.
const BLANKS = [0x3164, 0xffa0, 0x2800, 0x2028, 0x2029, 0xe0000, 0xe0001, 0xe0020, 0xe0041, 0xe007f];

describe(kindOfName.name, () => {
  it('maps the six accepted extensions, case-insensitively', () => {
    expect(['a.html', 'a.HTM', 'a.md', 'a.MarkDown', 'a.txt', 'a.Text'].map(kindOfName)).toEqual([
      'HTML',
      'HTML',
      'MARKDOWN',
      'MARKDOWN',
      'TEXT',
      'TEXT',
    ]);
    expect(['a.zip', 'a.exe', 'a', 'a.md.zip', 'a.mdx'].map(kindOfName)).toEqual([null, null, null, null, null]);
  });
});

describe(fileNameProblem.name, () => {
  it('accepts ordinary names, including non-ASCII ones', () => {
    expect(fileNameProblem('周报 2024.md')).toBeNull();
    expect(fileNameProblem('report (1).md')).toBeNull();
  });

  it('refuses bidi controls and invisible characters anywhere in the name', () => {
    const sut = fileNameProblem;
    expect(sut('invoice\u202Etxt.html')).toBe('文件名不能包含双向文本控制符或零宽字符');
    for (const code of INVISIBLE) {
      const character = String.fromCodePoint(code);
      for (const name of [`${character}a.md`, `a${character}b.md`, `a.md${character}`]) {
        expect(sut(name), `${hex(code)} in ${JSON.stringify(name)}`).not.toBeNull();
      }
    }
  });

  it('keeps the neighbours of those ranges, such as U+2010 and U+202F', () => {
    const sut = fileNameProblem;
    for (const code of [0x200a, 0x2010, 0x2029, 0x202f, 0x2065, 0x206a, 0x061b, 0x180d, 0xfefe]) {
      expect(sut(`a${String.fromCodePoint(code)}b.md`), hex(code)).not.toBe('文件名不能包含双向文本控制符或零宽字符');
    }
    expect(sut('a\u2010b.md')).toBeNull();
    expect(sut('العربية.md')).toBeNull();
  });

  it('refuses separators, control characters, bare extensions and other types', () => {
    for (const name of [
      'a/b.md',
      'a\\b.md',
      'a\u0000.md',
      'a\n.md',
      'a\u0085.md',
      '.md',
      '',
      ' x.md',
      'x.md ',
      'x.pdf',
      'a'.repeat(254) + '.md',
    ]) {
      expect(fileNameProblem(name), JSON.stringify(name)).not.toBeNull();
    }
  });
});

describe(folderNameProblem.name, () => {
  it('refuses empty, dot and separator names', () => {
    expect(folderNameProblem('Projects 2024')).toBeNull();
    for (const name of ['', ' ', '.', '..', 'a/b', 'tab\t']) expect(folderNameProblem(name)).not.toBeNull();
  });

  it('refuses control characters, bidi controls and invisible characters', () => {
    const sut = folderNameProblem;
    expect(sut('a\u0000b')).toBe('文件夹名不能包含控制字符');
    expect(sut('a\u202Eb')).toBe('文件夹名不能包含双向文本控制符或零宽字符');
    for (const code of INVISIBLE) expect(sut(`a${String.fromCodePoint(code)}b`), hex(code)).not.toBeNull();
    expect(sut('项目 (2024)')).toBeNull();
  });
});

describe(nfcName.name, () => {
  it('stores precomposed and decomposed spellings as one name', () => {
    expect(nfcName('cafe\u0301.md')).toBe('caf\u00e9.md');
    expect(nfcName('caf\u00e9.md')).toBe('caf\u00e9.md');
    // Combining marks in either order, or partly composed, come to the same name.
    expect(new Set(['e\u0323\u0302', 'e\u0302\u0323', '\u00ea\u0323', '\u1ec7'].map(nfcName))).toEqual(new Set(['\u1ec7']));
    expect(nfcName('\u1100\u1161.md')).toBe('\uac00.md');
    expect(nfcName('周报 2024.md')).toBe('周报 2024.md');
  });
});

describe('names of invisible characters only', () => {
  it('refuses a file name whose every character before the extension is invisible', () => {
    for (const code of BLANKS) {
      const character = String.fromCodePoint(code);
      for (const name of [character, `${character}.md`, `${character}${character}.txt`]) {
        expect(fileNameProblem(name), `${hex(code)}: ${JSON.stringify(name)}`).not.toBeNull();
      }
    }
    expect(fileNameProblem('\u3164.md')).toBe('文件名不能只由不可见字符组成');
    expect(fileNameProblem('\u3164\u2800\u{E0041}.md')).toBe('文件名不能只由不可见字符组成');
    expect(fileNameProblem('\u3164')).toBe('文件名不能只由不可见字符组成');
  });

  it('refuses a folder name of invisible characters only', () => {
    for (const code of BLANKS) {
      const character = String.fromCodePoint(code);
      expect(folderNameProblem(character), hex(code)).not.toBeNull();
      expect(folderNameProblem(character.repeat(2)), hex(code)).not.toBeNull();
    }
    expect(folderNameProblem('\u3164')).toBe('文件夹名不能只由不可见字符组成');
    expect(folderNameProblem('\u2800\u3164')).toBe('文件夹名不能只由不可见字符组成');
  });

  it('keeps names with something visible beside those characters', () => {
    expect(fileNameProblem('a\u3164b.md')).toBeNull();
    expect(fileNameProblem('\u2800x.md')).toBeNull();
    expect(folderNameProblem('a\u3164')).toBeNull();
    expect(folderNameProblem('\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}')).toBeNull();
  });
});

describe(numberedName.name, () => {
  it('numbers before the extension and renumbers an already numbered name', () => {
    expect(numberedName('report.md', 1)).toBe('report (1).md');
    expect(numberedName('report.md', 2)).toBe('report (2).md');
    expect(numberedName('report (1).md', 2)).toBe('report (2).md');
    expect(numberedName('archive.tar.MD', 3)).toBe('archive.tar (3).MD');
  });
});
