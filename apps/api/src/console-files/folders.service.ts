import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../common/sql.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { folderNameProblem } from '../files/file-names.js';
import { isUuid } from '../files/files.repository.js';
import { isUniqueViolation } from '../files/files.service.js';
import type { FolderDto, FolderNodeDto } from './dto/console.dto.js';

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

/** Ids of a folder and every folder below it, trashed or not. */
export const SUBTREE_CTE = `
  WITH RECURSIVE subtree AS (
    SELECT id FROM folders WHERE id = $1 AND user_id = $2
    UNION ALL
    SELECT c.id FROM folders c JOIN subtree s ON c.parent_id = s.id
  )`;

function duplicateFolder(name: string): AppError {
  return new AppError(ErrorCode.DUPLICATE, `同一位置已存在同名文件夹「${name}」`);
}

/** Console folders: a tree per user; deleting moves a whole subtree, files included, to the trash. */
@Injectable()
export class FoldersService {
  constructor(private readonly db: DataSource) {}

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
        if (parentId !== null) await this.findLive(userId, parentId, manager, true);
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

  /** Renames and/or moves a folder. Moving it below itself is refused (409 CONFLICT). */
  async update(userId: string, folderId: string, change: { name?: string; parentId?: string | null }): Promise<FolderDto> {
    if (change.name !== undefined) {
      const problem = folderNameProblem(change.name);
      if (problem) throw AppError.validation(problem);
    }
    return this.db
      .transaction(async (manager) => {
        const folder = await this.findLive(userId, folderId, manager, true);
        const parentId = change.parentId === undefined ? folder.parent_id : change.parentId;
        if (parentId !== null && parentId !== folder.parent_id) {
          await this.findLive(userId, parentId, manager, true);
          const below: Array<{ id: string }> = await manager.query(`${SUBTREE_CTE} SELECT id FROM subtree WHERE id = $3`, [
            folderId,
            userId,
            parentId,
          ]);
          if (below.length) throw new AppError(ErrorCode.CONFLICT, '不能把文件夹移动到它自身或其子文件夹中');
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
      return toFolderDto(rows[0]!);
    });
  }
}
