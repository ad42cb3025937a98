import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LIMITS } from '@sharedown/contract/limits';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';
import { hashPassword } from '../auth/accounts/password-hasher.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { pageOf, pageRequestOf } from '../common/page-cursor.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { folderNameProblem, nfcName, numberedName } from '../files/file-names.js';
import { FilesRepository } from '../files/files.repository.js';
import { FoldersRepository } from '../files/folders/folders.repository.js';
import { FilesService } from '../files/files.service.js';
import {
  REQUEST_STATES,
  type CreateRequestDto,
  type CreatedRequestDto,
  type RequestDto,
  type RequestListDto,
  type RequestState,
  type RequestUploadDto,
  type RequestUploadListDto,
  type UpdateRequestDto,
  type UploadReview,
} from './request.dto.js';
import {
  REQUESTS_CURSOR,
  RequestsRepository,
  UPLOADS_CURSOR,
  type RequestChanges,
  type RequestRecord,
  type UploadRecord,
} from './requests.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The root folder uploads land in when a request names none. */
export const REQUESTS_FOLDER = 'Requests';
const MAX_FOLDER_ATTEMPTS = 100;

export function requestPath(segment: string, token: string): string {
  return `/r/${encodeURIComponent(segment)}/${encodeURIComponent(token)}`;
}

function notFound(): AppError {
  return AppError.notFound('文档请求不存在');
}

function normalisedAllowlist(list: string[] | null | undefined): string[] | null | undefined {
  if (list === undefined || list === null) return list;
  const unique = [...new Set(list.map((email) => email.trim().toLowerCase()))];
  return unique.length ? unique : null;
}

/** A folder name made of a request's title: path separators and surrounding blanks taken out. */
function folderNameOf(title: string): string {
  const name = nfcName(title)
    .replace(/[/\\]/g, '-')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 120)
    .trim();
  return name && !folderNameProblem(name) ? name : 'Request';
}

export function toUploadDto(upload: UploadRecord): RequestUploadDto {
  return {
    id: upload.id,
    fileId: upload.fileId,
    fileName: upload.fileName,
    sizeBytes: upload.sizeBytes,
    scanStatus: upload.scanStatus,
    review: upload.review,
    uploaderName: upload.uploaderName,
    uploaderEmail: upload.uploaderEmail,
    message: upload.message,
    at: upload.createdAt.toISOString(),
  };
}

/**
 * The owner's side of document requests: create, list, change, close, and review what came in.
 * Every operation is scoped to the owner; another account's request is not found.
 */
@Injectable()
export class RequestsService {
  constructor(
    private readonly db: DataSource,
    private readonly requests: RequestsRepository,
    private readonly files: FilesRepository,
    private readonly folders: FoldersRepository,
    private readonly fileService: FilesService,
    private readonly audit: AuditLog,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  toDto(request: RequestRecord, segment: string): RequestDto {
    return {
      id: request.id,
      title: request.title,
      instructions: request.instructions,
      folderId: request.folderId,
      maxUploads: request.maxUploads,
      maxBytes: request.maxBytes,
      expiresAt: request.expiresAt?.toISOString() ?? null,
      hasPassword: request.hasPassword,
      emailAllowlist: request.emailAllowlist,
      state: request.state,
      uploadCount: request.uploadCount,
      url: `${this.runtime.env.PUBLIC_URL}${requestPath(segment, request.token)}`,
      notify: request.notify,
      createdAt: request.createdAt.toISOString(),
      closedAt: request.closedAt?.toISOString() ?? null,
    };
  }

  async create(owner: { id: string; segment: string }, input: CreateRequestDto): Promise<CreatedRequestDto> {
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const record = await this.db.transaction(async (manager) => {
      // One owner's tree changes take turns (owner, folders, files): the folder checks see every change committed before.
      await this.files.lockOwner(owner.id, manager);
      const folderId = input.folderId
        ? await this.ownFolder(manager, owner.id, input.folderId)
        : await this.newRequestFolder(manager, owner.id, input.title);
      const created = await this.requests.insert(manager, {
        ownerId: owner.id,
        token: randomBytes(18).toString('base64url'),
        title: input.title,
        instructions: input.instructions ?? '',
        folderId,
        maxUploads: input.maxUploads ?? 10,
        maxBytes: input.maxBytes ?? LIMITS.uploadBytes,
        expiresInDays: input.expiresInDays ?? null,
        passwordHash,
        emailAllowlist: normalisedAllowlist(input.emailAllowlist) ?? null,
        notify: input.notify ?? 'every',
      });
      await this.audit.within(manager, {
        userId: owner.id,
        action: AuditAction.requestCreated,
        targetId: created.id,
        details: { title: created.title, folderId },
      });
      return created;
    });
    const request = this.toDto(record, owner.segment);
    return { request, url: request.url };
  }

  async list(
    owner: { id: string; segment: string },
    query: { state?: string; limit?: string; cursor?: string },
  ): Promise<RequestListDto> {
    const state = query.state === undefined || query.state === '' ? null : query.state;
    if (state !== null && !REQUEST_STATES.includes(state as RequestState)) {
      throw AppError.validation(`state 必须是 ${REQUEST_STATES.join('、')} 之一`, 'state');
    }
    const page = pageRequestOf(REQUESTS_CURSOR, query) ?? { limit: 50, after: null };
    const rows = await this.requests.page(owner.id, state as RequestState | null, page);
    const { rows: shown, nextCursor } = pageOf(rows, page.limit, REQUESTS_CURSOR, (row) => ({
      createdAt: row.cursorTime,
      id: row.id,
    }));
    return { requests: shown.map((row) => this.toDto(row, owner.segment)), nextCursor };
  }

  async get(owner: { id: string; segment: string }, id: string): Promise<RequestDto> {
    return this.toDto(await this.owned(owner.id, id), owner.segment);
  }

  async update(owner: { id: string; segment: string }, id: string, input: UpdateRequestDto): Promise<RequestDto> {
    if (!UUID.test(id)) throw notFound();
    const changes: RequestChanges = {
      title: input.title,
      instructions: input.instructions,
      maxUploads: input.maxUploads,
      maxBytes: input.maxBytes,
      expiresInDays: input.expiresInDays,
      emailAllowlist: normalisedAllowlist(input.emailAllowlist),
      notify: input.notify,
    };
    if (input.password !== undefined) changes.passwordHash = input.password === null ? null : await hashPassword(input.password);
    const updated = await this.db.transaction((manager) => this.requests.update(owner.id, id, changes, manager));
    if (!updated) throw notFound();
    return this.toDto(updated, owner.segment);
  }

  /** Closes the request: its page answers 410 from now on; what was uploaded stays. */
  async close(owner: { id: string; segment: string }, id: string): Promise<RequestDto> {
    if (!UUID.test(id)) throw notFound();
    const closed = await this.db.transaction(async (manager) => {
      const before = await this.requests.findOwned(owner.id, id, manager);
      const row = await this.requests.close(owner.id, id, manager);
      if (row && before && before.closedAt === null) {
        await this.audit.within(manager, { userId: owner.id, action: AuditAction.requestClosed, targetId: row.id });
      }
      return row;
    });
    if (!closed) throw notFound();
    return this.toDto(closed, owner.segment);
  }

  async uploads(ownerId: string, id: string, query: { limit?: string; cursor?: string }): Promise<RequestUploadListDto> {
    await this.owned(ownerId, id);
    const page = pageRequestOf(UPLOADS_CURSOR, query) ?? { limit: 50, after: null };
    const rows = await this.requests.uploads(id, page);
    const { rows: shown, nextCursor } = pageOf(rows, page.limit, UPLOADS_CURSOR, (row) => ({
      createdAt: row.cursorTime,
      id: row.id,
    }));
    return { uploads: shown.map(toUploadDto), nextCursor };
  }

  /**
   * The owner's decision on an upload. Accepting makes the file shareable like any other (once
   * CLEAN); rejecting moves it to the trash. Deciding again the same way changes nothing; the
   * other way is 409 CONFLICT.
   */
  async review(ownerId: string, requestId: string, uploadId: string, decision: 'accept' | 'reject'): Promise<RequestUploadDto> {
    if (!UUID.test(requestId) || !UUID.test(uploadId)) throw AppError.notFound('上传不存在');
    const target: UploadReview = decision === 'accept' ? 'ACCEPTED' : 'REJECTED';
    const decided = await this.db.transaction(async (manager) => {
      const upload = await this.requests.findUpload(ownerId, requestId, uploadId, manager);
      if (!upload) throw AppError.notFound('上传不存在');
      if (upload.review === target) return { upload, changed: false };
      if (upload.review !== 'PENDING') {
        throw new AppError(ErrorCode.CONFLICT, `该上传已被${upload.review === 'ACCEPTED' ? '接受' : '拒绝'}，不能再改变`);
      }
      await this.requests.setReview(manager, uploadId, target);
      await this.audit.within(manager, {
        userId: ownerId,
        action: decision === 'accept' ? AuditAction.requestUploadAccepted : AuditAction.requestUploadRejected,
        targetId: uploadId,
        details: { requestId, fileId: upload.fileId, fileName: upload.fileName },
      });
      return { upload: { ...upload, review: target }, changed: true };
    });
    // The file goes to the trash through the trash's own rules (its shares revoked, its audit entry).
    if (decided.changed && target === 'REJECTED' && decided.upload.fileId) {
      await this.fileService.trash(ownerId, decided.upload.fileId).catch((error: unknown) => {
        // Trashed or purged meanwhile: nothing left to move.
        if (!(error instanceof AppError && error.code === ErrorCode.NOT_FOUND)) throw error;
      });
    }
    const fresh = await this.requests.findUpload(ownerId, requestId, uploadId);
    return toUploadDto(fresh ?? decided.upload);
  }

  private async owned(ownerId: string, id: string): Promise<RequestRecord> {
    if (!UUID.test(id)) throw notFound();
    const found = await this.requests.findOwned(ownerId, id);
    if (!found) throw notFound();
    return found;
  }

  private async ownFolder(manager: EntityManager, ownerId: string, folderId: string): Promise<string> {
    if (!(await this.files.isLiveFolder(ownerId, folderId, manager, true))) throw AppError.notFound('文件夹不存在');
    return folderId;
  }

  /** A new folder named after the title (numbered when taken) inside the root folder `Requests`, made on demand. */
  private async newRequestFolder(manager: EntityManager, ownerId: string, title: string): Promise<string> {
    const root =
      (await this.requests.liveFolderNamed(manager, ownerId, null, REQUESTS_FOLDER)) ??
      (await this.folders.insert(manager, { userId: ownerId, parentId: null, name: REQUESTS_FOLDER })).id;
    const base = folderNameOf(title);
    for (let n = 1; n <= MAX_FOLDER_ATTEMPTS; n++) {
      const name = n === 1 ? base : numberedName(base, n);
      if (!(await this.requests.liveFolderNamed(manager, ownerId, root, name))) {
        return (await this.folders.insert(manager, { userId: ownerId, parentId: root, name })).id;
      }
    }
    throw new AppError(ErrorCode.CONFLICT, '请求文件夹中同名文件夹过多，请指定 folderId');
  }
}
