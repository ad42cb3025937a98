import { describe, expect, it } from 'vitest';
import { LocalValidationError } from '../api-errors.js';
import { movePlanOf } from './service-move.js';

describe(movePlanOf.name, () => {
  describe('a file (fileId given)', () => {
    it('renames', () => {
      expect(movePlanOf({ fileId: 'f1', name: 'b.md' })).toEqual({ type: 'file', id: 'f1', body: { name: 'b.md' } });
    });

    it('moves into a folder, where folderId is the target', () => {
      expect(movePlanOf({ fileId: 'f1', folderId: 'd1' })).toEqual({ type: 'file', id: 'f1', body: { folderId: 'd1' } });
    });

    it('moves to the root with folderId null, which the body keeps', () => {
      expect(movePlanOf({ fileId: 'f1', folderId: null })).toEqual({ type: 'file', id: 'f1', body: { folderId: null } });
    });

    it('renames and moves in one call', () => {
      expect(movePlanOf({ fileId: 'f1', folderId: 'd1', name: 'b.md' }).body).toEqual({ folderId: 'd1', name: 'b.md' });
    });

    it('refuses parentId, which only moves folders', () => {
      expect(() => movePlanOf({ fileId: 'f1', parentId: 'd1' })).toThrow(/parentId moves a folder/);
    });

    it('refuses a call that changes nothing', () => {
      expect(() => movePlanOf({ fileId: 'f1' })).toThrow(LocalValidationError);
    });
  });

  describe('a folder (folderId without fileId)', () => {
    it('renames', () => {
      expect(movePlanOf({ folderId: 'd1', name: 'Drafts' })).toEqual({ type: 'folder', id: 'd1', body: { name: 'Drafts' } });
    });

    it('moves below another folder, or to the top level with parentId null', () => {
      expect(movePlanOf({ folderId: 'd1', parentId: 'd2' }).body).toEqual({ parentId: 'd2' });
      expect(movePlanOf({ folderId: 'd1', parentId: null }).body).toEqual({ parentId: null });
    });

    it('refuses a call that changes nothing', () => {
      expect(() => movePlanOf({ folderId: 'd1' })).toThrow(LocalValidationError);
    });
  });

  it('refuses a call that names neither a file nor a folder', () => {
    expect(() => movePlanOf({ name: 'x' })).toThrow(LocalValidationError);
    expect(() => movePlanOf({ folderId: null, name: 'x' })).toThrow(/give fileId/);
  });
});
