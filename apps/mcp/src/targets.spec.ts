import { describe, expect, it } from 'vitest';
import { LocalValidationError } from './api-errors.js';
import { purgeTargetOf, targetOf } from './targets.js';

describe(targetOf.name, () => {
  it('names a file by fileId and a folder by folderId', () => {
    expect(targetOf({ fileId: 'f1' })).toEqual({ type: 'file', id: 'f1' });
    expect(targetOf({ folderId: 'd1' })).toEqual({ type: 'folder', id: 'd1' });
  });

  it('refuses both at once, since the two id spaces are separate', () => {
    expect(() => targetOf({ fileId: 'f1', folderId: 'd1' })).toThrow(LocalValidationError);
  });

  it('refuses neither', () => {
    expect(() => targetOf({})).toThrow(/fileId.*folderId/);
  });
});

describe(purgeTargetOf.name, () => {
  it('empties the whole trash only when asked with all: true', () => {
    expect(purgeTargetOf({ all: true })).toEqual({ type: 'all' });
    expect(() => purgeTargetOf({ all: false })).toThrow(LocalValidationError);
    expect(() => purgeTargetOf({})).toThrow(/all: true/);
  });

  it('purges one item when it is named', () => {
    expect(purgeTargetOf({ fileId: 'f1' })).toEqual({ type: 'file', id: 'f1' });
    expect(purgeTargetOf({ folderId: 'd1', all: false })).toEqual({ type: 'folder', id: 'd1' });
  });

  it('refuses all: true beside a named item, which would purge more than the caller named', () => {
    expect(() => purgeTargetOf({ fileId: 'f1', all: true })).toThrow(LocalValidationError);
    expect(() => purgeTargetOf({ folderId: 'd1', all: true })).toThrow(LocalValidationError);
  });

  it('refuses a file and a folder together', () => {
    expect(() => purgeTargetOf({ fileId: 'f1', folderId: 'd1' })).toThrow(LocalValidationError);
  });
});
