import { LocalValidationError } from './api-errors.js';

/** One file or one folder, the thing a trash operation acts on. */
export type Target = { type: 'file'; id: string } | { type: 'folder'; id: string };

export interface TargetArgs {
  fileId?: string;
  folderId?: string;
}

/**
 * Files and folders live in separate id spaces with separate REST routes, so a call names exactly
 * one of them; guessing from an id alone could act on the wrong thing.
 */
export function targetOf({ fileId, folderId }: TargetArgs): Target {
  if (fileId !== undefined && folderId !== undefined) {
    throw new LocalValidationError('give either fileId or folderId, not both');
  }
  if (fileId !== undefined) return { type: 'file', id: fileId };
  if (folderId !== undefined) return { type: 'folder', id: folderId };
  throw new LocalValidationError('give fileId (a file) or folderId (a folder)');
}

/** What a purge deletes for good: one trashed file or folder, or everything in the trash. */
export function purgeTargetOf(args: TargetArgs & { all?: boolean }): Target | { type: 'all' } {
  const named = args.fileId !== undefined || args.folderId !== undefined;
  if (args.all && named)
    throw new LocalValidationError('all: true empties the whole trash; do not name a file or folder with it');
  if (args.all) return { type: 'all' };
  if (!named) throw new LocalValidationError('give fileId or folderId of a trashed item, or all: true to empty the whole trash');
  return targetOf(args);
}
