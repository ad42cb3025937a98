import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { FilesRepository, isUuid, toFileDto } from '../files.repository.js';
import { nfcName } from '../file-names.js';
import { FilesService, isUniqueViolation } from '../files.service.js';
import type { FolderDto, PurgeResultDto, TrashFileDto, TrashFolderDto } from '../dto/console-files.dto.js';
import { FoldersRepository } from '../folders/folders.repository.js';
import { toFolderDto } from '../folders/folders.service.js';
import { AuditAction } from '../../audit/audit-action.js';
import { AuditLog } from '../../audit/audit-log.js';

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
    private readonly folders: FoldersRepository,
    private readonly filesService: FilesService,
    private readonly audit: AuditLog,
  ) {}

  async list(userId: string): Promise<{ folders: TrashFolderDto[]; files: TrashFileDto[] }> {
    // Only what was deleted directly: items trashed together with their folder come back with it.
    const folderRows = await this.folders.listTrashed(userId);
    const trashedFiles = await this.files.listTrashed(userId);
    return {
      folders: folderRows.map((row) => ({
        ...toFolderDto(row),
        deletedAt: row.deleted_at.toISOString(),
        fileCount: row.file_count,
      })),
      files: trashedFiles.map((file) => ({
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
        await this.files.restore(file.id, folderId, name, manager);
        await this.audit.within(manager, { userId, action: AuditAction.fileRestored, targetId: file.id, details: { name } });
        return { fileId: file.id, renamed: name !== nfcName(file.name) };
      }),
    );
  }

  /** Restores a folder and everything that was trashed together with it. */
  async restoreFolder(userId: string, folderId: string): Promise<{ folder: FolderDto; renamed: boolean }> {
    return this.retryOnNameRace(() =>
      this.db.transaction(async (manager) => {
        await this.files.lockOwner(userId, manager);
        const folder = await this.trashedFolder(userId, folderId, manager);
        const parentId =
          folder.parent_id && (await this.files.isLiveFolder(userId, folder.parent_id, manager, true)) ? folder.parent_id : null;
        const name = await this.freeFolderName(userId, parentId, folder.name, manager);
        const restored = await this.folders.restoreSubtree(userId, folder.id, { parentId, name }, manager);
        await this.audit.within(manager, { userId, action: AuditAction.folderRestored, targetId: folder.id, details: { name } });
        return { folder: toFolderDto(restored), renamed: name !== nfcName(folder.name) };
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
      const result = await this.purgeFiles(userId, await this.folders.fileIdsInSubtree(userId, folder.id, manager), manager);
      await this.folders.delete(userId, folder.id, manager);
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
      const result = await this.purgeFiles(userId, await this.folders.fileIdsInTrash(userId, manager), manager);
      await this.folders.deleteTrashed(userId, manager);
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
    const { deletedFiles, freedBytes } = await this.files.deleteWithVersions(userId, fileIds, manager);
    await this.files.releaseQuota(userId, freedBytes, manager);
    return { purgedFiles: deletedFiles, freedBytes };
  }

  private async trashedFolder(userId: string, folderId: string, manager: EntityManager) {
    const folder = isUuid(folderId) ? await this.folders.lockTrashed(userId, folderId, manager) : null;
    if (!folder) throw AppError.notFound('回收站中没有该文件夹');
    return folder;
  }

  /** `name` in NFC, or `name (n)`, free among the live folders beside it (their names compared in NFC too). */
  private async freeFolderName(userId: string, parentId: string | null, name: string, manager: EntityManager): Promise<string> {
    name = nfcName(name);
    const taken = new Set([...(await this.folders.liveNamesIn(userId, parentId, manager))].map(nfcName));
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
