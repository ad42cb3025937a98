import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { confirmed, fileUpdateOf, folderMoveOf, purgePlanOf, trashKindOf } from './option-rules.js';

describe(fileUpdateOf.name, () => {
  it('moves into a folder, to the root with folderId null, renames, or both', () => {
    expect(fileUpdateOf({ folder: 'f1' })).toEqual({ folderId: 'f1' });
    expect(fileUpdateOf({ root: true })).toEqual({ folderId: null });
    expect(fileUpdateOf({ name: 'new.md' })).toEqual({ name: 'new.md' });
    expect(fileUpdateOf({ folder: 'f1', name: 'new.md' })).toEqual({ folderId: 'f1', name: 'new.md' });
    expect(fileUpdateOf({ root: true, name: 'new.md' })).toEqual({ folderId: null, name: 'new.md' });
  });

  it('refuses --folder with --root, and nothing to do, as usage errors', () => {
    expect(() => fileUpdateOf({ folder: 'f1', root: true })).toThrow(UsageError);
    expect(() => fileUpdateOf({ folder: 'f1', root: true })).toThrow(/not both/);
    expect(() => fileUpdateOf({})).toThrow(UsageError);
    expect(() => fileUpdateOf({ root: false })).toThrow(/nothing to do/);
  });
});

describe(folderMoveOf.name, () => {
  it('takes exactly one of --parent and --root', () => {
    expect(folderMoveOf({ parent: 'p1' })).toEqual({ parentId: 'p1' });
    expect(folderMoveOf({ root: true })).toEqual({ parentId: null });
    expect(() => folderMoveOf({ parent: 'p1', root: true })).toThrow(/not both/);
    expect(() => folderMoveOf({})).toThrow(UsageError);
  });
});

describe(trashKindOf.name, () => {
  it('is a file unless --folder, and refuses both', () => {
    expect(trashKindOf({})).toBe('file');
    expect(trashKindOf({ file: true })).toBe('file');
    expect(trashKindOf({ folder: true })).toBe('folder');
    expect(() => trashKindOf({ file: true, folder: true })).toThrow(UsageError);
  });
});

describe(purgePlanOf.name, () => {
  it('purges one file, one folder, or all of the trash', () => {
    expect(purgePlanOf('a', {})).toEqual({ kind: 'file', id: 'a' });
    expect(purgePlanOf('a', { folder: true })).toEqual({ kind: 'folder', id: 'a' });
    expect(purgePlanOf(undefined, { all: true })).toEqual({ kind: 'all' });
  });

  it.each([
    [undefined, {}, /--all to empty/],
    ['a', { all: true }, /not both/],
    [undefined, { all: true, folder: true }, /no --file or --folder/],
    ['a', { file: true, folder: true }, /not both/],
  ] as const)('refuses %s %o as a usage error', (id, options, message) => {
    expect(() => purgePlanOf(id, options)).toThrow(UsageError);
    expect(() => purgePlanOf(id, options)).toThrow(message);
  });
});

describe(confirmed.name, () => {
  it('counts only yes', () => {
    for (const answer of ['y', 'Y', 'yes', ' YES ']) expect(confirmed(answer)).toBe(true);
    for (const answer of ['', 'n', 'no', 'yess', 'sure']) expect(confirmed(answer)).toBe(false);
  });
});
