import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../auth/auth-context.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { fileNameProblem, kindOfName, nfcName } from './file-names.js';
import { FilesRepository, toFileDto, type FileRecord, type VersionRecord } from './files.repository.js';
import { FilesService, isUniqueViolation } from './files.service.js';
import type {
  ConsoleFileDto,
  ConsoleFilePageDto,
  FileContentDto,
  FileVersionDto,
  VersionResultDto,
} from './dto/console-files.dto.js';

export function toConsoleFileDto(file: FileRecord): ConsoleFileDto {
  return {
    ...toFileDto(file),
    updatedAt: file.updatedAt.toISOString(),
    currentVersionId: file.currentVersionId,
    versionNo: file.versionNo,
    fromRequest: file.fromRequest,
  };
}

export function toVersionDto(version: VersionRecord, currentVersionId: string): FileVersionDto {
  return {
    id: version.id,
    versionNo: version.versionNo,
    sizeBytes: version.sizeBytes,
    sha256: version.sha256,
    createdAt: version.createdAt.toISOString(),
    scanStatus: version.scanStatus,
    scanResult: version.scanResult,
    current: version.id === currentVersionId,
  };
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The console's view of files: search and pages, previews, renames and moves. */
@Injectable()
export class ConsoleFilesService {
  constructor(
    private readonly db: DataSource,
    private readonly files: FilesRepository,
    private readonly filesService: FilesService,
  ) {}

  async page(
    userId: string,
    query: { folderId?: string; q?: string; page?: string; pageSize?: string },
  ): Promise<ConsoleFilePageDto> {
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.pageSize ?? 50);
    let folder: string | null | undefined;
    if (query.folderId === 'root') {
      folder = null;
    } else if (query.folderId) {
      if (!(await this.files.isLiveFolder(userId, query.folderId))) throw AppError.notFound('文件夹不存在');
      folder = query.folderId;
    }
    const { files, total } = await this.files.pageLive(userId, {
      folderId: folder,
      namePattern: query.q?.trim() ? likePattern(nfcName(query.q.trim())) : undefined,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { files: files.map(toConsoleFileDto), total, page, pageSize };
  }

  async get(userId: string, fileId: string): Promise<ConsoleFileDto> {
    return toConsoleFileDto(await this.filesService.findLive(userId, fileId));
  }

  /** The stored text of a version (the current one by default). Quarantined content is never handed out. */
  async content(userId: string, fileId: string, versionId?: string): Promise<FileContentDto> {
    const file = await this.filesService.findLive(userId, fileId);
    const version = await this.filesService.versionContent(userId, fileId, versionId || undefined);
    if (version.scanStatus === 'INFECTED') {
      throw new AppError(ErrorCode.INFECTED, `该版本已被杀毒扫描隔离（${version.scanResult ?? '未知特征'}），不能查看`);
    }
    return {
      fileId: file.id,
      versionId: version.id,
      versionNo: version.versionNo,
      kind: file.kind,
      scanStatus: version.scanStatus,
      content: version.content,
    };
  }

  async versions(userId: string, fileId: string): Promise<FileVersionDto[]> {
    const { file, versions } = await this.filesService.listVersions(userId, fileId);
    return versions.map((version) => toVersionDto(version, file.currentVersionId));
  }

  /** Copies an old version into a new current one (FilesService.restoreVersion); the file and that new version. */
  async restoreVersion(user: AuthUser, fileId: string, versionId: string): Promise<VersionResultDto> {
    const restored = await this.filesService.restoreVersion(user, fileId, versionId);
    return { file: toConsoleFileDto(restored.file), version: await this.versionOf(restored.file, restored.versionId) };
  }

  async versionOf(file: FileRecord, versionId: string): Promise<FileVersionDto> {
    const version = (await this.files.listVersions(file.id)).find((candidate) => candidate.id === versionId)!;
    return toVersionDto(version, file.currentVersionId);
  }

  /**
   * Renames and/or moves a live file. The kind cannot change with a rename. Takes the owner's
   * lock first, then the target folder's, then the file's, like every change of the owner's tree.
   */
  async update(userId: string, fileId: string, change: { name?: string; folderId?: string | null }): Promise<ConsoleFileDto> {
    return this.db
      .transaction(async (manager) => {
        await this.files.lockOwner(userId, manager);
        const file = await this.filesService.findLive(userId, fileId, manager);
        // In NFC, like every stored name: a move also brings a name the NFC migration kept un-normalised to it.
        const name = nfcName(change.name ?? file.name);
        if (change.name !== undefined) {
          const problem = fileNameProblem(name);
          if (problem) throw AppError.validation(problem);
          if (kindOfName(name) !== file.kind) throw AppError.validation(`重命名不能改变文件类型（${file.kind}）`);
        }
        const folderId = change.folderId === undefined ? file.folderId : change.folderId;
        if (folderId !== null && !(await this.files.isLiveFolder(userId, folderId, manager, true))) {
          throw AppError.notFound('文件夹不存在');
        }
        const existing = await this.files.findLiveByName(userId, folderId, name, manager);
        if (existing && existing.id !== file.id) throw new AppError(ErrorCode.DUPLICATE, `同一文件夹中已存在同名文件「${name}」`);
        await this.files.rename(file.id, name, folderId, manager);
        return toConsoleFileDto((await this.files.findLive(userId, file.id, manager))!);
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, 'files_live_name_key'))
          throw new AppError(ErrorCode.DUPLICATE, '同一文件夹中已存在同名文件');
        throw error;
      });
  }
}
