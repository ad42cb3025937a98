import { describe, expect, it } from 'vitest';
import { UniquePaths, folderPaths, safeSegment } from './export-paths.js';

describe('export paths', () => {
  it('keeps a zip entry inside its folder whatever the name holds', () => {
    expect(safeSegment('report.md')).toBe('report.md');
    expect(safeSegment('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(safeSegment('..')).toBe('_..');
    expect(safeSegment('.')).toBe('_.');
    expect(safeSegment('  ')).toBe('_');
    expect(safeSegment('a\\b:c*?"<>|\u0001.md')).toBe('a_b_c_______.md');
    expect(safeSegment('..\uff0f..\uff3cetc\u2215passwd\u29f5x.md')).toBe('.._.._etc_passwd_x.md');
  });

  it('builds folder paths from the top and survives a loop or a missing parent', () => {
    const paths = folderPaths([
      { id: 'a', parentId: null, name: 'Top' },
      { id: 'b', parentId: 'a', name: 'Mid' },
      { id: 'c', parentId: 'b', name: 'Low' },
      { id: 'x', parentId: 'y', name: 'X' },
      { id: 'y', parentId: 'x', name: 'Y' },
      { id: 'o', parentId: 'gone', name: 'Orphan' },
    ]);
    expect(paths.get('c')).toEqual(['Top', 'Mid', 'Low']);
    expect(paths.get('x')).toEqual(['Y', 'X']);
    expect(paths.get('o')).toEqual(['Orphan']);
  });

  it('gives each path once, ignoring case', () => {
    const paths = new UniquePaths();
    expect(paths.claim('documents/a.md')).toBe('documents/a.md');
    expect(paths.claim('documents/A.md')).toBe('documents/A (2).md');
    expect(paths.claim('documents/a.md')).toBe('documents/a (3).md');
    expect(paths.claim('documents/notes')).toBe('documents/notes');
    expect(paths.claim('documents/notes')).toBe('documents/notes (2)');
  });
});
