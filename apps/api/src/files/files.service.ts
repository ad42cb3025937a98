import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-context.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { ScanQueue } from '../scan/scan-queue.js';
import type { FileDto } from './dto/file.dto.js';
import { fileNameProblem, kindOfName, nfcName, numberedName, type FileKind } from './file-names.js';
import { pageOf, type PageRequest } from '../common/page-cursor.js';
import {
  FILES_CURSOR,
  FilesRepository,
  isUuid,
  type FileOrderKey,
  toFileDto,
  type FileRecord,
  type VersionRecord,
  type VersionWithContent,
} from './files.repository.js';
import type { UploadedDocument } from './upload-reader.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';

/** What to do when the name is taken by a live file in the target folder. */
export type ConflictMode = 'fail' | 'overwrite' | 'rename';

export interface UploadInput {
  document: UploadedDocument;
  folderId?: string | null;
  /** `fail` for the REST API (409); the console may also overwrite or rename. */
  conflict?: ConflictMode;
  /** The member who uploads it (null: a document request's uploader, who has no account); the owner by default. */
  createdBy?: string | null;
}

/** Runs inside the upload's transaction, after the file is written; its failure undoes the upload. */
export type UploadExtension<T> = (manager: EntityManager, file: FileRecord) => Promise<T>;

export interface UploadOutcome<T> {
  file: FileDto;
  record: FileRecord;
  /** The version written by this upload. */
  versionId: string;
  /**
   * `overwritten` when the upload became a new version of the file of that name, `renamed` when it
   * was stored under a free numbered name, else `created`.
   */
  result: 'created' | 'overwritten' | 'renamed';
  extra: T;
}

const UNIQUE_VIOLATION = '23505';
const MAX_RENAME_ATTEMPTS = 1000;

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidate = error as { code?: string; driverError?: { code?: string; constraint?: string }; constraint?: string };
  const code = candidate?.code ?? candidate?.driverError?.code;
  if (code !== UNIQUE_VIOLATION) return false;
  return !constraint || (candidate.constraint ?? candidate.driverError?.constraint) === constraint;
}

function overQuota(): AppError {
  return new AppError(ErrorCode.OVER_QUOTA, '存储配额不足，无法保存该文件');
}

function infectedConflict(name: string): AppError {
  return new AppError(ErrorCode.INFECTED, `同名文件「${name}」已被杀毒扫描隔离，不能覆盖或替换`);
}

/**
 * Files and their versions. Uploads write the file, its first version and the quota in one
 * transaction, and hand that transaction to an optional extension (a share created with
 * the file); the scan job is enqueued once the transaction has committed.
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly db: DataSource,
    private readonly files: FilesRepository,
    private readonly scans: ScanQueue,
    private readonly audit: AuditLog,
  ) {}

  /** `user`: the account the file belongs to (the caller, or a document request's owner for its uploader). */
  async upload<T = undefined>(
    user: Pick<AuthUser, 'id'>,
    input: UploadInput,
    extension?: UploadExtension<T>,
  ): Promise<UploadOutcome<T>> {
    // Names are stored in NFC, so the duplicate checks below compare what the reader sees.
    const document = { ...input.document, filename: nfcName(input.document.filename) };
    const problem = fileNameProblem(document.filename);
    if (problem) throw AppError.validation(problem);
    const kind = kindOfName(document.filename)!;
    const folderId = input.folderId ?? null;
    const conflict = input.conflict ?? 'fail';

    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await this.db.transaction((manager) =>
          this.writeUpload(manager, user, { document, folderId, conflict, kind, createdBy: input.createdBy }, extension),
        );
        await this.scans.enqueueSafely([outcome.versionId]);
        return { ...outcome, file: toFileDto(outcome.record) };
      } catch (error) {
        // A parallel upload of the same name committed first: overwrite and rename look
        // again and find it; fail reports it.
        if (!isUniqueViolation(error, 'files_live_name_key')) throw error;
        if (conflict === 'fail' || attempt >= 5) {
          throw new AppError(ErrorCode.DUPLICATE, `同一文件夹中已存在同名文件「${document.filename}」`);
        }
      }
    }
  }

  private async writeUpload<T>(
    manager: EntityManager,
    user: Pick<AuthUser, 'id'>,
    input: {
      document: UploadedDocument;
      folderId: string | null;
      conflict: ConflictMode;
      kind: FileKind;
      createdBy: string | null | undefined;
    },
    extension?: UploadExtension<T>,
  ): Promise<Omit<UploadOutcome<T>, 'file'>> {
    const { document, folderId, conflict, kind } = input;
    const createdBy = input.createdBy === undefined ? user.id : input.createdBy;
    // Locking the owner's row first makes one owner's uploads take turns (with each other and
    // with every tree change, in the one order owner, folders, files): the name checks below
    // then see every upload committed before, and parallel renaming uploads each find their
    // own free name. The quota is reserved after them, so a duplicate or quarantined name is
    // reported as such even when the account is full.
    await this.files.lockOwner(user.id, manager);
    if (folderId !== null && !(await this.files.isLiveFolder(user.id, folderId, manager, true))) {
      throw AppError.notFound('文件夹不存在');
    }
    let name = document.filename;
    let target: FileRecord | null = await this.files.findLiveByName(user.id, folderId, name, manager);
    let renamed = false;
    if (target && conflict === 'rename') {
      name = await this.freeName(user.id, folderId, name, manager);
      target = null;
      renamed = true;
    } else if (target && conflict === 'fail') {
      if (target.scanStatus === 'INFECTED') throw infectedConflict(name);
      throw new AppError(ErrorCode.DUPLICATE, `同一文件夹中已存在同名文件「${name}」`);
    }
    if (!(await this.files.reserveQuota(user.id, document.sizeBytes, manager))) throw overQuota();

    let fileId: string;
    let versionId: string;
    if (target) {
      fileId = target.id;
      versionId = await this.addVersion(manager, target, document);
    } else {
      fileId = randomUUID();
      versionId = randomUUID();
      await this.insertFile(manager, { fileId, versionId, userId: user.id, folderId, name, kind, createdBy });
      await this.files.insertVersion(manager, { id: versionId, fileId, ...pick(document) });
    }
    let record = (await this.files.findLive(user.id, fileId, manager))!;
    let extra = undefined as T;
    if (extension) {
      extra = await extension(manager, record);
      record = (await this.files.findLive(user.id, fileId, manager))!;
    }
    return { record, versionId, result: target ? 'overwritten' : renamed ? 'renamed' : 'created', extra };
  }

  /** Adds a version to a live file (console). Refused while the current version is quarantined. */
  async uploadVersion(
    user: AuthUser,
    fileId: string,
    document: UploadedDocument,
  ): Promise<{ file: FileRecord; versionId: string }> {
    const outcome = await this.db.transaction(async (manager) => {
      await this.files.lockOwner(user.id, manager);
      const file = await this.lockLive(user.id, fileId, manager);
      const uploadedKind = document.filename ? kindOfName(document.filename) : null;
      if (uploadedKind && uploadedKind !== file.kind) {
        throw AppError.validation(`新版本的类型必须与原文件一致（${file.kind}）`);
      }
      if (!(await this.files.reserveQuota(user.id, document.sizeBytes, manager))) throw overQuota();
      const versionId = await this.addVersion(manager, file, document);
      return { file: (await this.files.findLive(user.id, fileId, manager))!, versionId };
    });
    await this.scans.enqueueSafely([outcome.versionId]);
    return outcome;
  }

  /**
   * Restores an old version by copying its content into a new current version, so history
   * only grows and every share pinned to a version keeps what it pinned. The copy is scanned
   * again (signatures change) and counts against the quota like any upload.
   */
  async restoreVersion(user: AuthUser, fileId: string, versionId: string): Promise<{ file: FileRecord; versionId: string }> {
    const outcome = await this.db.transaction(async (manager) => {
      await this.files.lockOwner(user.id, manager);
      const file = await this.lockLive(user.id, fileId, manager);
      const version = await this.files.findVersion(file.id, versionId, manager);
      if (!version) throw AppError.notFound('版本不存在');
      if (version.scanStatus === 'INFECTED') throw new AppError(ErrorCode.INFECTED, '该版本已被杀毒扫描隔离，不能恢复');
      if (!(await this.files.reserveQuota(user.id, version.sizeBytes, manager))) throw overQuota();
      const newVersionId = await this.addVersion(manager, file, {
        filename: file.name,
        content: version.content,
        sizeBytes: version.sizeBytes,
        sha256: version.sha256,
      });
      return { file: (await this.files.findLive(user.id, fileId, manager))!, versionId: newVersionId };
    });
    await this.scans.enqueueSafely([outcome.versionId]);
    return outcome;
  }

  /** A live file of the user; 404 when missing, trashed or someone else's. */
  async findLive(userId: string, fileId: string, manager?: EntityManager): Promise<FileRecord> {
    const file = await this.files.findLive(userId, fileId, manager);
    if (!file) throw AppError.notFound('文件不存在');
    return file;
  }

  async get(userId: string, fileId: string): Promise<FileDto> {
    return toFileDto(await this.findLive(userId, fileId));
  }

  /** Live files; `folderId` narrows to one folder (404 when it is not the user's live folder). */
  async list(userId: string, folderId?: string): Promise<FileDto[]> {
    if (folderId !== undefined && !(await this.files.isLiveFolder(userId, folderId))) throw AppError.notFound('文件夹不存在');
    return (await this.files.listLive(userId, folderId)).map(toFileDto);
  }

  /** One page of `list`, same order; `nextCursor` is null on the last page. */
  async listPage(
    userId: string,
    folderId: string | undefined,
    page: PageRequest<FileOrderKey>,
  ): Promise<{ files: FileDto[]; nextCursor: string | null }> {
    if (folderId !== undefined && !(await this.files.isLiveFolder(userId, folderId))) throw AppError.notFound('文件夹不存在');
    const fetched = await this.files.listLivePage(userId, folderId, page);
    const { rows, nextCursor } = pageOf(fetched, page.limit, FILES_CURSOR, (file) => ({ name: file.name, id: file.id }));
    return { files: rows.map(toFileDto), nextCursor };
  }

  /** Versions of a live file, newest first. */
  async listVersions(userId: string, fileId: string): Promise<{ file: FileRecord; versions: VersionRecord[] }> {
    const file = await this.findLive(userId, fileId);
    return { file, versions: await this.files.listVersions(file.id) };
  }

  /** One version of a live file with its content; the current one when `versionId` is absent. */
  async versionContent(userId: string, fileId: string, versionId?: string, manager?: EntityManager): Promise<VersionWithContent> {
    const file = await this.findLive(userId, fileId, manager);
    const version = await this.files.findVersion(file.id, versionId ?? file.currentVersionId, manager);
    if (!version) throw AppError.notFound('版本不存在');
    return version;
  }

  /** Moves a live file to the trash and revokes all its shares, together. Frees no quota. */
  async trash(userId: string, fileId: string): Promise<FileDto> {
    if (!isUuid(fileId)) throw AppError.notFound('文件不存在');
    return this.db.transaction(async (manager) => {
      await this.files.lockOwner(userId, manager);
      if (!(await this.files.moveToTrash(userId, fileId, manager))) throw AppError.notFound('文件不存在');
      const sharesRevoked = await this.files.revokeShares([fileId], manager);
      const file = (await this.files.findAny(userId, fileId, manager))!;
      await this.audit.within(manager, {
        userId,
        action: AuditAction.fileDeleted,
        targetId: fileId,
        details: { name: file.name, sharesRevoked },
      });
      return toFileDto(file);
    });
  }

  /**
   * `name` (in NFC), or a name like `report (3).md`, that no live file in the folder holds. A name
   * kept un-normalised by the NFC migration (it collided) takes its NFC form too.
   */
  async freeName(userId: string, folderId: string | null, name: string, manager: EntityManager): Promise<string> {
    name = nfcName(name);
    const taken = new Set([...(await this.files.namesInFolder(userId, folderId, manager))].map(nfcName));
    if (!taken.has(name)) return name;
    for (let n = 1; n <= MAX_RENAME_ATTEMPTS; n++) {
      const candidate = numberedName(name, n);
      if (!taken.has(candidate) && !fileNameProblem(candidate)) return candidate;
    }
    throw new AppError(ErrorCode.CONFLICT, '无法为该文件生成不重复的名称');
  }

  /** Row-locks a live file; callers hold the owner lock already (owner, folders, files). */
  private async lockLive(userId: string, fileId: string, manager: EntityManager): Promise<FileRecord> {
    if (!isUuid(fileId)) throw AppError.notFound('文件不存在');
    // Serializes version numbering and quarantine checks for this file.
    await this.files.lockLive(userId, fileId, manager);
    return this.findLive(userId, fileId, manager);
  }

  private async addVersion(manager: EntityManager, file: FileRecord, document: UploadedDocument): Promise<string> {
    if (file.scanStatus === 'INFECTED') throw infectedConflict(file.name);
    const versionId = randomUUID();
    await this.files.lock(file.id, manager);
    await this.files.insertVersion(manager, { id: versionId, fileId: file.id, ...pick(document) });
    await this.files.setCurrentVersion(file.id, versionId, manager);
    return versionId;
  }

  private async insertFile(
    manager: EntityManager,
    file: {
      fileId: string;
      versionId: string;
      userId: string;
      folderId: string | null;
      name: string;
      kind: FileKind;
      createdBy: string | null;
    },
  ): Promise<void> {
    await this.files.insertFile(manager, file);
  }
}

function pick(document: UploadedDocument): { content: string; sizeBytes: number; sha256: string } {
  return { content: document.content, sizeBytes: document.sizeBytes, sha256: document.sha256 };
}
