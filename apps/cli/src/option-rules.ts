import type { Schemas } from '@sharedown/contract';
import { UsageError } from './errors.js';

export type FileUpdate = Schemas['UpdateFileDto'];
export type FolderUpdate = Schemas['UpdateFolderDto'];

/** `files mv`: a target folder (`--folder` or `--root`), a new name, or both. */
export function fileUpdateOf(options: { folder?: string; root?: boolean; name?: string }): FileUpdate {
  if (options.folder !== undefined && options.root) throw new UsageError('give --folder <id> or --root, not both');
  const update: FileUpdate = {};
  if (options.folder !== undefined) update.folderId = options.folder;
  if (options.root) update.folderId = null;
  if (options.name !== undefined) update.name = options.name;
  if (!Object.keys(update).length) {
    throw new UsageError('nothing to do: give --folder <id> or --root to move the file, --name <name> to rename it');
  }
  return update;
}

/** `folders mv`: exactly one of `--parent` and `--root`. */
export function folderMoveOf(options: { parent?: string; root?: boolean }): FolderUpdate {
  if (options.parent !== undefined && options.root) throw new UsageError('give --parent <id> or --root, not both');
  if (options.parent !== undefined) return { parentId: options.parent };
  if (options.root) return { parentId: null };
  throw new UsageError('give --parent <id> to move the folder into another, or --root to move it to the top level');
}

export type TrashKind = 'file' | 'folder';

/** Whether a trash id names a file (the default) or, with `--folder`, a folder. */
export function trashKindOf(options: { file?: boolean; folder?: boolean }): TrashKind {
  if (options.file && options.folder) throw new UsageError('give --file or --folder, not both');
  return options.folder ? 'folder' : 'file';
}

export type PurgePlan = { kind: 'all' } | { kind: TrashKind; id: string };

/** `trash purge`: one trashed file or folder by id, or `--all` of the trash, never both. */
export function purgePlanOf(id: string | undefined, options: { all?: boolean; file?: boolean; folder?: boolean }): PurgePlan {
  if (options.all) {
    if (id !== undefined) throw new UsageError('give an id or --all, not both');
    if (options.file || options.folder) throw new UsageError('--all empties the whole trash; it takes no --file or --folder');
    return { kind: 'all' };
  }
  if (id === undefined) {
    throw new UsageError('give the id of a trashed file (or --folder and a folder id), or --all to empty the trash');
  }
  return { kind: trashKindOf(options), id };
}

/** A confirmation typed at a `[y/N]` question: only yes counts. */
export function confirmed(answer: string): boolean {
  return /^y(es)?$/i.test(answer.trim());
}
