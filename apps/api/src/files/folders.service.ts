import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../common/sql.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { folderNameProblem } from './file-names.js';
import { FilesRepository, isUuid } from './files.repository.js';
import { isUniqueViolation } from './files.service.js';
import type { FolderDto, FolderNodeDto } from './dto/console-files.dto.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';

interface FolderRow {
  id: string;
  name: string;
  parent_id: string | null;
  created_at: Date;
  deleted_at: Date | null;
}

export function toFolderDto(row: FolderRow): FolderDto {
  return { id: row.id, name: row.name, parentId: row.parent_id, createdAt: row.created_at.toISOString() };
}

/**
 * How deep folders may nest (a top-level folder is at depth 1). Creating and moving folders keep
 * every folder, trashed or not, within it, and every walk of the tree stops there, so even a
 * corrupt tree (a loop written by hand) cannot make a query recurse without end.
 */
export const MAX_FOLDER_DEPTH = 256;

/** Ids of a folder ($1, of user $2) and every folder below it, trashed or not, at most MAX_FOLDER_DEPTH levels. */
export const SUBTREE_CTE = `
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

function duplicateFolder(name: string): AppError {
  return new AppError(ErrorCode.DUPLICATE, `同一位置已存在同名文件夹「${name}」`);
}

function tooDeep(): AppError {
  return AppError.validation(`文件夹最多只能嵌套 ${MAX_FOLDER_DEPTH} 层`);
}

/**
 * Console folders: a tree per user; deleting moves a whole subtree, files included, to the trash.
 * Every change takes the owner's lock first (then folders, then files), so one owner's changes
 * take turns and each sees the tree the one before it left: two crossing moves cannot both pass
 * the loop check.
 */
@Injectable()
export class FoldersService {
  constructor(
    private readonly db: DataSource,
    private readonly files: FilesRepository,
    private readonly audit: AuditLog,
  ) {}

  async tree(userId: string): Promise<FolderNodeDto[]> {
    const rows: FolderRow[] = await this.db.query(
      `SELECT id, name, parent_id, created_at, deleted_at FROM folders WHERE user_id = $1 AND deleted_at IS NULL ORDER BY name, id`,
      [userId],
    );
    const nodes = new Map<string, FolderNodeDto>(rows.map((row) => [row.id, { ...toFolderDto(row), children: [] }]));
    const roots: FolderNodeDto[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentId ? nodes.get(node.parentId) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  async findLive(userId: string, folderId: string, manager: EntityManager = this.db.manager, lock = false): Promise<FolderRow> {
    const rows: FolderRow[] = isUuid(folderId)
      ? await manager.query(
          `SELECT id, name, parent_id, created_at, deleted_at FROM folders WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
          [folderId, userId],
        )
      : [];
    if (!rows[0]) throw AppError.notFound('文件夹不存在');
    return rows[0];
  }

  async create(userId: string, name: string, parentId: string | null): Promise<FolderDto> {
    const problem = folderNameProblem(name);
    if (problem) throw AppError.validation(problem);
    return this.db
      .transaction(async (manager) => {
        await this.files.lockOwner(userId, manager);
        if (parentId !== null) {
          await this.findLive(userId, parentId, manager, true);
          const { depth } = await this.ancestry(userId, parentId, manager);
          if (depth + 1 > MAX_FOLDER_DEPTH) throw tooDeep();
        }
        const rows: FolderRow[] = await manager.query(
          `INSERT INTO folders (user_id, parent_id, name) VALUES ($1, $2, $3) RETURNING id, name, parent_id, created_at, deleted_at`,
          [userId, parentId, name],
        );
        return toFolderDto(rows[0]!);
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, 'folders_live_name_key')) throw duplicateFolder(name);
        throw error;
      });
  }

  /**
   * Renames and/or moves a folder. Moving it into itself or below itself is refused (409
   * CONFLICT), and so is a move that would nest folders deeper than MAX_FOLDER_DEPTH (400).
   */
  async update(userId: string, folderId: string, change: { name?: string; parentId?: string | null }): Promise<FolderDto> {
    if (change.name !== undefined) {
      const problem = folderNameProblem(change.name);
      if (problem) throw AppError.validation(problem);
    }
    return this.db
      .transaction(async (manager) => {
        await this.files.lockOwner(userId, manager);
        const folder = await this.findLive(userId, folderId, manager, true);
        const parentId = change.parentId === undefined ? folder.parent_id : change.parentId;
        if (parentId !== null && parentId !== folder.parent_id) {
          await this.findLive(userId, parentId, manager, true);
          // Checked after the owner lock: no other change of this tree can slip in before the update.
          const target = await this.ancestry(userId, parentId, manager, folder.id);
          if (target.includes) throw new AppError(ErrorCode.CONFLICT, '不能把文件夹移动到它自身或其子文件夹中');
          if (target.depth + (await this.height(userId, folder.id, manager)) > MAX_FOLDER_DEPTH) throw tooDeep();
        }
        const rows = returnedRows<FolderRow>(
          await manager.query(
            `UPDATE folders SET name = $3, parent_id = $4 WHERE id = $1 AND user_id = $2
             RETURNING id, name, parent_id, created_at, deleted_at`,
            [folderId, userId, change.name ?? folder.name, parentId],
          ),
        );
        return toFolderDto(rows[0]!);
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, 'folders_live_name_key')) throw duplicateFolder(change.name ?? '');
        throw error;
      });
  }

  /**
   * Moves a folder, its sub-folders and their files to the trash with one timestamp, which
   * later tells a restore what went in together. Shares of those files are revoked.
   */
  async trash(userId: string, folderId: string): Promise<FolderDto> {
    return this.db.transaction(async (manager) => {
      await this.files.lockOwner(userId, manager);
      await this.findLive(userId, folderId, manager, true);
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
      if (files.length) {
        await manager.query(`UPDATE shares SET revoked_at = now() WHERE file_id = ANY($1::uuid[]) AND revoked_at IS NULL`, [
          files.map((file) => file.id),
        ]);
      }
      const rows: FolderRow[] = await manager.query(
        `SELECT id, name, parent_id, created_at, deleted_at FROM folders WHERE id = $1`,
        [folderId],
      );
      await this.audit.within(manager, {
        userId,
        action: AuditAction.folderDeleted,
        targetId: folderId,
        details: { name: rows[0]!.name, files: files.length },
      });
      return toFolderDto(rows[0]!);
    });
  }

  /**
   * The depth of a folder (1 at the top level; more than MAX_FOLDER_DEPTH when its chain of
   * parents is longer, or loops) and whether `folderId` is the folder or one of its ancestors.
   */
  private async ancestry(
    userId: string,
    parentId: string,
    manager: EntityManager,
    folderId?: string,
  ): Promise<{ depth: number; includes: boolean }> {
    const rows: Array<{ depth: number; includes: boolean }> = await manager.query(
      `${ANCESTORS_CTE} SELECT count(*)::int AS depth, coalesce(bool_or(id = $3), false) AS includes FROM ancestors`,
      [parentId, userId, folderId ?? null],
    );
    return rows[0]!;
  }

  /** How many levels a folder's subtree spans, trashed folders included (1 for a folder without sub-folders). */
  private async height(userId: string, folderId: string, manager: EntityManager): Promise<number> {
    const rows: Array<{ height: number }> = await manager.query(
      `${SUBTREE_CTE} SELECT coalesce(max(depth), 0)::int AS height FROM subtree`,
      [folderId, userId],
    );
    return rows[0]!.height;
  }
}
