import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../common/sql.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { FILE_COLUMNS, FILE_FROM, FilesRepository, isUuid, toFileDto, toFileRecord } from './files.repository.js';
import { FilesService, isUniqueViolation } from './files.service.js';
import type { FolderDto, PurgeResultDto, TrashFileDto, TrashFolderDto } from './dto/console-files.dto.js';
import { MAX_FOLDER_DEPTH, SUBTREE_CTE, toFolderDto } from './folders.service.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';

const RESTORE_ATTEMPTS = 5;

/** A folder name not taken among the live folders beside it: `notes`, `notes (1)`, … */
function numberedFolderName(name: string, n: number): string {
  return `${name.replace(/ \(\d+\)$/, '') || name} (${n})`;
}

/**
 * The trash: files and folders with `deleted_at` set. They keep counting against the quota
 * until purged. A restore returns an item to where it was (the top level when that folder is
 * itself gone), renaming it when its name was taken meanwhile; shares revoked by the delete
 * stay revoked. Every change takes the owner's lock first (then folders, then files), like
 * every other change of the owner's tree, files or quota.
 */
@Injectable()
export class TrashService {
  constructor(
    private readonly db: DataSource,
    private readonly files: FilesRepository,
    private readonly filesService: FilesService,
    private readonly audit: AuditLog,
  ) {}

  async list(userId: string): Promise<{ folders: TrashFolderDto[]; files: TrashFileDto[] }> {
    // Only what was deleted directly: items trashed together with their folder come back with it.
    const folderRows: Array<{
      id: string;
      name: string;
      parent_id: string | null;
      created_at: Date;
      deleted_at: Date;
      file_count: number;
    }> = await this.db.query(
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
    const fileRows = await this.db.query(
      `SELECT ${FILE_COLUMNS} FROM ${FILE_FROM} LEFT JOIN folders p ON p.id = f.folder_id
       WHERE f.user_id = $1 AND f.deleted_at IS NOT NULL AND (p.id IS NULL OR p.deleted_at IS DISTINCT FROM f.deleted_at)
       ORDER BY f.deleted_at DESC, f.name`,
      [userId],
    );
    return {
      folders: folderRows.map((row) => ({
        ...toFolderDto(row),
        deletedAt: row.deleted_at.toISOString(),
        fileCount: row.file_count,
      })),
      files: fileRows.map(toFileRecord).map((file: ReturnType<typeof toFileRecord>) => ({
        ...toFileDto(file),
        deletedAt: file.deletedAt!.toISOString(),
      })),
    };
  }

  async restoreFile(userId: string, fileId: string): Promise<{ fileId: string; renamed: boolean }> {
    return this.retryOnNameRace(() =>
      this.db.transaction(async (manager) => {
        await this.files.lockOwner(userId, manager);
        const file = await this.files.findAny(userId, fileId, manager);
        if (!file || !file.deletedAt) throw AppError.notFound('回收站中没有该文件');
        const folderId =
          file.folderId && (await this.files.isLiveFolder(userId, file.folderId, manager, true)) ? file.folderId : null;
        const name = await this.filesService.freeName(userId, folderId, file.name, manager);
        await manager.query(`UPDATE files SET deleted_at = NULL, updated_at = now(), folder_id = $2, name = $3 WHERE id = $1`, [
          file.id,
          folderId,
          name,
        ]);
        await this.audit.within(manager, { userId, action: AuditAction.fileRestored, targetId: file.id, details: { name } });
        return { fileId: file.id, renamed: name !== file.name };
      }),
    );
  }

  /** Restores a folder and everything that was trashed together with it. */
  async restoreFolder(userId: string, folderId: string): Promise<{ folder: FolderDto; renamed: boolean }> {
    return this.retryOnNameRace(() =>
      this.db.transaction(async (manager) => {
        await this.files.lockOwner(userId, manager);
        // Timestamps are compared in SQL: JavaScript dates drop the microseconds PostgreSQL keeps.
        const folder = await this.trashedFolder(userId, folderId, manager);
        const parentId =
          folder.parent_id && (await this.files.isLiveFolder(userId, folder.parent_id, manager, true)) ? folder.parent_id : null;
        const name = await this.freeFolderName(userId, parentId, folder.name, manager);
        await manager.query(
          `${SUBTREE_CTE} UPDATE files SET deleted_at = NULL, updated_at = now()
           WHERE user_id = $2 AND folder_id IN (SELECT id FROM subtree) AND deleted_at = (SELECT deleted_at FROM folders WHERE id = $1)`,
          [folder.id, userId],
        );
        await manager.query(
          `${SUBTREE_CTE} UPDATE folders SET deleted_at = NULL
           WHERE id IN (SELECT id FROM subtree) AND id <> $1 AND deleted_at = (SELECT deleted_at FROM folders WHERE id = $1)`,
          [folder.id, userId],
        );
        const rows = returnedRows<{ id: string; name: string; parent_id: string | null; created_at: Date }>(
          await manager.query(
            `UPDATE folders SET deleted_at = NULL, parent_id = $2, name = $3 WHERE id = $1 RETURNING id, name, parent_id, created_at`,
            [folder.id, parentId, name],
          ),
        );
        await this.audit.within(manager, { userId, action: AuditAction.folderRestored, targetId: folder.id, details: { name } });
        return { folder: toFolderDto({ ...rows[0]!, deleted_at: null }), renamed: name !== folder.name };
      }),
    );
  }

  /** Deletes a trashed file for good, with its versions and shares, and frees its storage. */
  async purgeFile(userId: string, fileId: string): Promise<PurgeResultDto> {
    return this.db.transaction(async (manager) => {
      await this.files.lockOwner(userId, manager);
      const file = await this.files.findAny(userId, fileId, manager);
      if (!file || !file.deletedAt) throw AppError.notFound('回收站中没有该文件');
      const result = await this.purgeFiles(userId, [file.id], manager);
      if (!result.purgedFiles) throw AppError.notFound('回收站中没有该文件');
      await this.audit.within(manager, {
        userId,
        action: AuditAction.filePurged,
        targetId: file.id,
        details: { name: file.name, freedBytes: result.freedBytes },
      });
      return result;
    });
  }

  /** Deletes a trashed folder, everything below it, and their files for good. */
  async purgeFolder(userId: string, folderId: string): Promise<PurgeResultDto> {
    return this.db.transaction(async (manager) => {
      await this.files.lockOwner(userId, manager);
      const folder = await this.trashedFolder(userId, folderId, manager);
      const files: Array<{ id: string }> = await manager.query(
        `${SUBTREE_CTE} SELECT id FROM files WHERE user_id = $2 AND folder_id IN (SELECT id FROM subtree)`,
        [folder.id, userId],
      );
      const result = await this.purgeFiles(
        userId,
        files.map((file) => file.id),
        manager,
      );
      await manager.query(`DELETE FROM folders WHERE id = $1 AND user_id = $2`, [folder.id, userId]);
      await this.audit.within(manager, {
        userId,
        action: AuditAction.folderPurged,
        targetId: folder.id,
        details: { name: folder.name, purgedFiles: result.purgedFiles, freedBytes: result.freedBytes },
      });
      return result;
    });
  }

  /** Empties the whole trash. */
  async purgeAll(userId: string): Promise<PurgeResultDto> {
    return this.db.transaction(async (manager) => {
      await this.files.lockOwner(userId, manager);
      const files: Array<{ id: string }> = await manager.query(
        `SELECT f.id FROM files f LEFT JOIN folders p ON p.id = f.folder_id
         WHERE f.user_id = $1 AND (f.deleted_at IS NOT NULL OR p.deleted_at IS NOT NULL)`,
        [userId],
      );
      const result = await this.purgeFiles(
        userId,
        files.map((file) => file.id),
        manager,
      );
      await manager.query(`DELETE FROM folders WHERE user_id = $1 AND deleted_at IS NOT NULL`, [userId]);
      await this.audit.within(manager, {
        userId,
        action: AuditAction.trashEmptied,
        details: { purgedFiles: result.purgedFiles, freedBytes: result.freedBytes },
      });
      return result;
    });
  }

  /**
   * Deletes files of the user with their versions (shares go with their file, ON DELETE CASCADE)
   * and returns to the quota exactly the bytes of the versions this call deleted: a file someone
   * else purged meanwhile frees nothing twice. Callers hold the owner lock.
   */
  private async purgeFiles(userId: string, fileIds: string[], manager: EntityManager): Promise<PurgeResultDto> {
    if (!fileIds.length) return { purgedFiles: 0, freedBytes: 0 };
    const versions = returnedRows<{ size_bytes: string }>(
      await manager.query(
        `DELETE FROM file_versions v USING files f
         WHERE v.file_id = f.id AND f.id = ANY($1::uuid[]) AND f.user_id = $2 RETURNING v.size_bytes`,
        [fileIds, userId],
      ),
    );
    const deleted = returnedRows<{ id: string }>(
      await manager.query(`DELETE FROM files WHERE id = ANY($1::uuid[]) AND user_id = $2 RETURNING id`, [fileIds, userId]),
    );
    const freedBytes = versions.reduce((sum, version) => sum + Number(version.size_bytes), 0);
    await this.files.releaseQuota(userId, freedBytes, manager);
    return { purgedFiles: deleted.length, freedBytes };
  }

  private async trashedFolder(userId: string, folderId: string, manager: EntityManager) {
    const rows: Array<{ id: string; name: string; parent_id: string | null; created_at: Date; deleted_at: Date }> = isUuid(
      folderId,
    )
      ? await manager.query(
          `SELECT id, name, parent_id, created_at, deleted_at FROM folders WHERE id = $1 AND user_id = $2 AND deleted_at IS NOT NULL FOR UPDATE`,
          [folderId, userId],
        )
      : [];
    if (!rows[0]) throw AppError.notFound('回收站中没有该文件夹');
    return rows[0];
  }

  private async freeFolderName(userId: string, parentId: string | null, name: string, manager: EntityManager): Promise<string> {
    const rows: Array<{ name: string }> = await manager.query(
      `SELECT name FROM folders WHERE user_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL`,
      [userId, parentId],
    );
    const taken = new Set(rows.map((row) => row.name));
    if (!taken.has(name)) return name;
    for (let n = 1; n <= 1000; n++) {
      const candidate = numberedFolderName(name, n);
      if (!taken.has(candidate)) return candidate;
    }
    throw new AppError(ErrorCode.CONFLICT, '无法为该文件夹生成不重复的名称');
  }

  private async retryOnNameRace<T>(operation: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await operation();
      } catch (error) {
        if (
          attempt >= RESTORE_ATTEMPTS ||
          !(isUniqueViolation(error, 'files_live_name_key') || isUniqueViolation(error, 'folders_live_name_key'))
        ) {
          throw error;
        }
      }
    }
  }
}
