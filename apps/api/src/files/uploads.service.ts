import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-context.js';
import { AppError } from '../common/app-error.js';
import { SharesService } from '../shares/shares.service.js';
import { ConsoleFilesService, toConsoleFileDto } from './console-files.service.js';
import type { ConsoleUploadResultDto, VersionResultDto } from './dto/console-files.dto.js';
import { isConflictMode } from './dto/console-files.dto.js';
import type { UploadResponseDto } from './dto/file.dto.js';
import { FilesService } from './files.service.js';
import type { MultipartUpload, UploadedDocument } from './upload-reader.js';

function documentOf(upload: MultipartUpload): UploadedDocument {
  if (!upload.document) throw AppError.validation('缺少 file 文件字段', 'file');
  return upload.document;
}

/** What a multipart upload asks for, on the REST API and in the console. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly files: FilesService,
    private readonly shares: SharesService,
    private readonly consoleFiles: ConsoleFilesService,
  ) {}

  /**
   * REST: a new file (a taken name is 409 DUPLICATE). With a `share` field the share is validated
   * and its password hashed first, then created in the upload's own transaction: both or neither.
   */
  async upload(user: AuthUser, upload: MultipartUpload, createdBy = user.id): Promise<UploadResponseDto> {
    const input = { document: documentOf(upload), folderId: upload.fields.folderId || null, createdBy };
    if (upload.fields.share === undefined) return { file: (await this.files.upload(user, input)).file };
    const share = await this.shares.prepareFromField(upload.fields.share);
    const { file, extra } = await this.files.upload(user, input, (manager, record) =>
      this.shares.createWithin(manager, user, record.id, share, createdBy),
    );
    return { file, share: extra.share, url: extra.url };
  }

  /** Console: the `conflict` field says what a taken name means (fail, overwrite or rename); the answer says which happened. */
  async uploadFromConsole(user: AuthUser, upload: MultipartUpload, createdBy = user.id): Promise<ConsoleUploadResultDto> {
    const document = documentOf(upload);
    const conflict = upload.fields.conflict ?? 'fail';
    if (!isConflictMode(conflict)) throw AppError.validation('conflict 必须是 fail、overwrite 或 rename', 'conflict');
    const outcome = await this.files.upload(user, { document, folderId: upload.fields.folderId || null, conflict, createdBy });
    return { file: toConsoleFileDto(outcome.record), outcome: outcome.result };
  }

  /** Console: a new current version of a live file, scanned like any upload. */
  async uploadVersion(user: AuthUser, fileId: string, upload: MultipartUpload): Promise<VersionResultDto> {
    const { file, versionId } = await this.files.uploadVersion(user, fileId, documentOf(upload));
    return { file: toConsoleFileDto(file), version: await this.consoleFiles.versionOf(file, versionId) };
  }
}
