import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../../common/sql.js';
import type { Columns } from '../../database/rows.js';

/** The columns FOLDER_COLUMNS selects. */
type FolderColumns = 'id' | 'name' | 'parent_id' | 'created_at' | 'deleted_at';

export type FolderRow = Columns<'folders', FolderColumns>;

/** A folder in the trash as the trash lists it: deleted directly, with the files that went with it. */
export type TrashedFolderRow = Columns<'folders', FolderColumns, { deleted_at: Date }> & {
  /** Computed: the number of files trashed with it. */
  file_count: number;
};

/**
 * How deep folders may nest (a top-level folder is at depth 1). Creating and moving folders keep
 * every folder, trashed or not, within it, and every walk of the tree stops there, so even a
 * corrupt tree (a loop written by hand) cannot make a query recurse without end.
 */
export const MAX_FOLDER_DEPTH = 256;

const FOLDER_COLUMNS = 'id, name, parent_id, created_at, deleted_at';

/** Ids of a folder ($1, of user $2) and every folder below it, trashed or not, at most MAX_FOLDER_DEPTH levels. */
const SUBTREE_CTE = `
  WITH RECURSIVE subtree AS (
    SELECT id, 1 AS depth FROM folders WHERE id = $1 AND user_id = $2
    UNION ALL
    SELECT c.id, s.depth + 1 FROM folders c JOIN subtree s ON c.parent_id = s.id
    WHERE c.user_id = $2 AND s.depth < ${MAX_FOLDER_DEPTH}
  )`;

/**
 * A folder ($1, of user $2) and its ancestors, the folder itself at depth 1. The walk goes one
 * level past MAX_FOLDER_DEPTH, so a chain longer than the limit (or a loop) shows as more rows.
 */
const ANCESTORS_CTE = `
  WITH RECURSIVE ancestors AS (
    SELECT id, parent_id, 1 AS depth FROM folders WHERE id = $1 AND user_id = $2
    UNION ALL
    SELECT p.id, p.parent_id, a.depth + 1 FROM folders p JOIN ancestors a ON p.id = a.parent_id
    WHERE p.user_id = $2 AND a.depth <= ${MAX_FOLDER_DEPTH}
  )`;

/**
 * SQL for the folder tree and the trash's side of it. Ids reach it already checked to be UUIDs.
 * The methods that take a manager run in the caller's transaction, which holds the owner's lock
 * (FilesRepository.lockOwner) before any of them.
 */
@Injectable()
export class FoldersRepository {
  constructor(private readonly db: DataSource) {}

  async listLive(userId: string): Promise<FolderRow[]> {
    return this.db.query(`SELECT ${FOLDER_COLUMNS} FROM folders WHERE user_id = $1 AND deleted_at IS NULL ORDER BY name, id`, [
      userId,
    ]);
  }

  /** A live folder of the user, row-locked FOR UPDATE when `lock`. */
  async findLive(userId: string, folderId: string, manager: EntityManager, lock: boolean): Promise<FolderRow | null> {
    const rows: FolderRow[] = await manager.query(
      `SELECT ${FOLDER_COLUMNS} FROM folders WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
      [folderId, userId],
    );
    return rows[0] ?? null;
  }

  async findById(folderId: string, manager: EntityManager): Promise<FolderRow> {
    const rows: FolderRow[] = await manager.query(`SELECT ${FOLDER_COLUMNS} FROM folders WHERE id = $1`, [folderId]);
    return rows[0]!;
  }

  async insert(manager: EntityManager, folder: { userId: string; parentId: string | null; name: string }): Promise<FolderRow> {
    const rows: FolderRow[] = await manager.query(
      `INSERT INTO folders (user_id, parent_id, name) VALUES ($1, $2, $3) RETURNING ${FOLDER_COLUMNS}`,
      [folder.userId, folder.parentId, folder.name],
    );
    return rows[0]!;
  }

  async update(
    manager: EntityManager,
    userId: string,
    folderId: string,
    change: { name: string; parentId: string | null },
  ): Promise<FolderRow> {
    const rows = returnedRows<FolderRow>(
      await manager.query(
        `UPDATE folders SET name = $3, parent_id = $4 WHERE id = $1 AND user_id = $2
         RETURNING ${FOLDER_COLUMNS}`,
        [folderId, userId, change.name, change.parentId],
      ),
    );
    return rows[0]!;
  }

  /**
   * The depth of a folder (1 at the top level; more than MAX_FOLDER_DEPTH when its chain of
   * parents is longer, or loops) and whether `folderId` is the folder or one of its ancestors.
   */
  async ancestry(
    userId: string,
    parentId: string,
    manager: EntityManager,
    folderId: string | null,
  ): Promise<{ depth: number; includes: boolean }> {
    const rows: Array<{ depth: number; includes: boolean }> = await manager.query(
      `${ANCESTORS_CTE} SELECT count(*)::int AS depth, coalesce(bool_or(id = $3), false) AS includes FROM ancestors`,
      [parentId, userId, folderId],
    );
    return rows[0]!;
  }

  /** How many levels a folder's subtree spans, trashed folders included (1 for a folder without sub-folders). */
  async height(userId: string, folderId: string, manager: EntityManager): Promise<number> {
    const rows: Array<{ height: number }> = await manager.query(
      `${SUBTREE_CTE} SELECT coalesce(max(depth), 0)::int AS height FROM subtree`,
      [folderId, userId],
    );
    return rows[0]!.height;
  }

  /**
   * Moves a folder, its live sub-folders and their live files to the trash with one timestamp
   * (now(), the same for the whole transaction), which later tells a restore what went in
   * together. Answers the ids of the files it moved.
   */
  async moveSubtreeToTrash(userId: string, folderId: string, manager: EntityManager): Promise<string[]> {
    await manager.query(
      `${SUBTREE_CTE} UPDATE folders SET deleted_at = now() WHERE id IN (SELECT id FROM subtree) AND deleted_at IS NULL`,
      [folderId, userId],
    );
    const files = returnedRows<{ id: string }>(
      await manager.query(
        `${SUBTREE_CTE} UPDATE files SET deleted_at = now(), updated_at = now()
         WHERE user_id = $2 AND folder_id IN (SELECT id FROM subtree) AND deleted_at IS NULL RETURNING id`,
        [folderId, userId],
      ),
    );
    return files.map((file) => file.id);
  }

  /**
   * Revokes the live collection shares of a folder and of the folders below it (for a trash: a
   * trashed folder is shared no more, as a trashed file is not). Answers how many went.
   */
  async revokeCollectionShares(userId: string, folderId: string, manager: EntityManager): Promise<number> {
    const revoked = returnedRows<{ id: string }>(
      await manager.query(
        `${SUBTREE_CTE} UPDATE shares SET revoked_at = now()
         WHERE user_id = $2 AND folder_id IN (SELECT id FROM subtree) AND revoked_at IS NULL RETURNING id`,
        [folderId, userId],
      ),
    );
    return revoked.length;
  }

  /** Folders deleted directly (not with their parent), newest first, with the files trashed with each. */
  async listTrashed(userId: string): Promise<TrashedFolderRow[]> {
    return this.db.query(
      `SELECT f.id, f.name, f.parent_id, f.created_at, f.deleted_at,
                (WITH RECURSIVE sub AS (
                   SELECT f.id AS id, 1 AS depth
                   UNION ALL
                   SELECT c.id, sub.depth + 1 FROM folders c JOIN sub ON c.parent_id = sub.id
                   WHERE c.user_id = $1 AND sub.depth < ${MAX_FOLDER_DEPTH})
                 SELECT count(*)::int FROM files x WHERE x.folder_id IN (SELECT id FROM sub) AND x.deleted_at = f.deleted_at) AS file_count
         FROM folders f LEFT JOIN folders p ON p.id = f.parent_id
         WHERE f.user_id = $1 AND f.deleted_at IS NOT NULL AND (p.id IS NULL OR p.deleted_at IS DISTINCT FROM f.deleted_at)
         ORDER BY f.deleted_at DESC, f.name`,
      [userId],
    );
  }

  /** A trashed folder of the user, row-locked FOR UPDATE, or null. */
  async lockTrashed(
    userId: string,
    folderId: string,
    manager: EntityManager,
  ): Promise<(FolderRow & { deleted_at: Date }) | null> {
    const rows: Array<FolderRow & { deleted_at: Date }> = await manager.query(
      `SELECT ${FOLDER_COLUMNS} FROM folders WHERE id = $1 AND user_id = $2 AND deleted_at IS NOT NULL FOR UPDATE`,
      [folderId, userId],
    );
    return rows[0] ?? null;
  }

  /**
   * Brings back a trashed folder under `parentId` and `name` with the files and sub-folders that
   * were trashed together with it (same deleted_at, compared in SQL: JavaScript dates drop the
   * microseconds PostgreSQL keeps).
   */
  async restoreSubtree(
    userId: string,
    folderId: string,
    target: { parentId: string | null; name: string },
    manager: EntityManager,
  ): Promise<FolderRow> {
    await manager.query(
      `${SUBTREE_CTE} UPDATE files SET deleted_at = NULL, updated_at = now()
       WHERE user_id = $2 AND folder_id IN (SELECT id FROM subtree) AND deleted_at = (SELECT deleted_at FROM folders WHERE id = $1)`,
      [folderId, userId],
    );
    await manager.query(
      `${SUBTREE_CTE} UPDATE folders SET deleted_at = NULL
       WHERE id IN (SELECT id FROM subtree) AND id <> $1 AND deleted_at = (SELECT deleted_at FROM folders WHERE id = $1)`,
      [folderId, userId],
    );
    const rows = returnedRows<{ id: string; name: string; parent_id: string | null; created_at: Date }>(
      await manager.query(
        `UPDATE folders SET deleted_at = NULL, parent_id = $2, name = $3 WHERE id = $1 RETURNING id, name, parent_id, created_at`,
        [folderId, target.parentId, target.name],
      ),
    );
    return { ...rows[0]!, deleted_at: null };
  }

  /** Ids of every file in the folder's subtree, trashed or not. */
  async fileIdsInSubtree(userId: string, folderId: string, manager: EntityManager): Promise<string[]> {
    const files: Array<{ id: string }> = await manager.query(
      `${SUBTREE_CTE} SELECT id FROM files WHERE user_id = $2 AND folder_id IN (SELECT id FROM subtree)`,
      [folderId, userId],
    );
    return files.map((file) => file.id);
  }

  /** Ids of the user's trashed files and of the files in trashed folders. */
  async fileIdsInTrash(userId: string, manager: EntityManager): Promise<string[]> {
    const files: Array<{ id: string }> = await manager.query(
      `SELECT f.id FROM files f LEFT JOIN folders p ON p.id = f.folder_id
       WHERE f.user_id = $1 AND (f.deleted_at IS NOT NULL OR p.deleted_at IS NOT NULL)`,
      [userId],
    );
    return files.map((file) => file.id);
  }

  /** Deletes a folder for good. */
  async delete(userId: string, folderId: string, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM folders WHERE id = $1 AND user_id = $2`, [folderId, userId]);
  }

  async deleteTrashed(userId: string, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM folders WHERE user_id = $1 AND deleted_at IS NOT NULL`, [userId]);
  }

  /** Names of the live folders directly under `parentId` (null = the top level). */
  async liveNamesIn(userId: string, parentId: string | null, manager: EntityManager): Promise<Set<string>> {
    const rows: Array<{ name: string }> = await manager.query(
      `SELECT name FROM folders WHERE user_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL`,
      [userId, parentId],
    );
    return new Set(rows.map((row) => row.name));
  }
}
