import { describe, expect, it } from 'vitest';
import { fileNameProblem, folderNameProblem, kindOfName, numberedName } from './file-names.js';

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
});

describe(numberedName.name, () => {
  it('numbers before the extension and renumbers an already numbered name', () => {
    expect(numberedName('report.md', 1)).toBe('report (1).md');
    expect(numberedName('report.md', 2)).toBe('report (2).md');
    expect(numberedName('report (1).md', 2)).toBe('report (2).md');
    expect(numberedName('archive.tar.MD', 3)).toBe('archive.tar (3).MD');
  });
});
