import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { folderNameProblem, nfcName } from '../file-names.js';
import { FilesRepository, isUuid } from '../files.repository.js';
import { FoldersRepository, MAX_FOLDER_DEPTH, type FolderRow } from './folders.repository.js';
import { isUniqueViolation } from '../files.service.js';
import type { FolderDto, FolderNodeDto } from '../dto/console-files.dto.js';
import { AuditAction } from '../../audit/audit-action.js';
import { AuditLog } from '../../audit/audit-log.js';

export function toFolderDto(row: FolderRow): FolderDto {
  return { id: row.id, name: row.name, parentId: row.parent_id, createdAt: row.created_at.toISOString() };
}

export { MAX_FOLDER_DEPTH } from './folders.repository.js';

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
    private readonly folders: FoldersRepository,
    private readonly audit: AuditLog,
  ) {}

  async tree(userId: string): Promise<FolderNodeDto[]> {
    const rows = await this.folders.listLive(userId);
    const nodes = new Map<string, FolderNodeDto>(rows.map((row) => [row.id, { ...toFolderDto(row), children: [] }]));
    const roots: FolderNodeDto[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentId ? nodes.get(node.parentId) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  async findLive(userId: string, folderId: string, manager: EntityManager = this.db.manager, lock = false): Promise<FolderRow> {
    const folder = isUuid(folderId) ? await this.folders.findLive(userId, folderId, manager, lock) : null;
    if (!folder) throw AppError.notFound('文件夹不存在');
    return folder;
  }

  async create(userId: string, givenName: string, parentId: string | null): Promise<FolderDto> {
    // Names are stored in NFC, so the duplicate check (the unique index) compares what the reader sees.
    const name = nfcName(givenName);
    const problem = folderNameProblem(name);
    if (problem) throw AppError.validation(problem);
    return this.db
      .transaction(async (manager) => {
        await this.files.lockOwner(userId, manager);
        if (parentId !== null) {
          await this.findLive(userId, parentId, manager, true);
          const { depth } = await this.folders.ancestry(userId, parentId, manager, null);
          if (depth + 1 > MAX_FOLDER_DEPTH) throw tooDeep();
        }
        return toFolderDto(await this.folders.insert(manager, { userId, parentId, name }));
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
    const newName = change.name === undefined ? undefined : nfcName(change.name);
    if (newName !== undefined) {
      const problem = folderNameProblem(newName);
      if (problem) throw AppError.validation(problem);
    }
    // The name the folder would have after the change, for a DUPLICATE message (a move keeps its
    // name, in NFC: a name the NFC migration kept un-normalised takes its NFC form when moved).
    let finalName = newName ?? '';
    return this.db
      .transaction(async (manager) => {
        await this.files.lockOwner(userId, manager);
        const folder = await this.findLive(userId, folderId, manager, true);
        finalName = newName ?? nfcName(folder.name);
        const parentId = change.parentId === undefined ? folder.parent_id : change.parentId;
        if (parentId !== null && parentId !== folder.parent_id) {
          await this.findLive(userId, parentId, manager, true);
          // Checked after the owner lock: no other change of this tree can slip in before the update.
          const target = await this.folders.ancestry(userId, parentId, manager, folder.id);
          if (target.includes) throw new AppError(ErrorCode.CONFLICT, '不能把文件夹移动到它自身或其子文件夹中');
          if (target.depth + (await this.folders.height(userId, folder.id, manager)) > MAX_FOLDER_DEPTH) throw tooDeep();
        }
        return toFolderDto(await this.folders.update(manager, userId, folderId, { name: finalName, parentId }));
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, 'folders_live_name_key')) throw duplicateFolder(finalName);
        throw error;
      });
  }

  /**
   * Moves a folder, its sub-folders and their files to the trash with one timestamp, which
   * later tells a restore what went in together. Shares of those files, and collection shares
   * of those folders, are revoked.
   */
  async trash(userId: string, folderId: string): Promise<FolderDto> {
    return this.db.transaction(async (manager) => {
      await this.files.lockOwner(userId, manager);
      await this.findLive(userId, folderId, manager, true);
      const fileIds = await this.folders.moveSubtreeToTrash(userId, folderId, manager);
      if (fileIds.length) await this.files.revokeShares(fileIds, manager);
      await this.folders.revokeCollectionShares(userId, folderId, manager);
      const folder = await this.folders.findById(folderId, manager);
      await this.audit.within(manager, {
        userId,
        action: AuditAction.folderDeleted,
        targetId: folderId,
        details: { name: folder.name, files: fileIds.length },
      });
      return toFolderDto(folder);
    });
  }
}
