import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-context.js';
import { hashPassword } from '../auth/accounts/password-hasher.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { parseShareField, settingsOf, type ShareSettings } from './share-input.js';
import { RESERVED_SLUGS, randomShareToken, toShare, viewPath, type ShareRow, type ShareTarget } from './share-row.js';
import { SharesRepository } from './shares.repository.js';
import type { CreateShareDto, ShareDto, ShareInputDto } from './share.dto.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';

/** Settings with the password already hashed, ready to be written inside a short transaction. */
export interface PreparedShare {
  settings: ShareSettings;
  passwordHash: string | null;
}

export interface CreatedShare {
  share: ShareDto;
  url: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Exactly one of fileId and folderId (both: 400 naming folderId; neither: 400 naming fileId), and
 * a collection is never pinned to a version (400 naming lockedVersionId).
 */
export function shareTargetOf(
  fileId: string | undefined,
  folderId: string | undefined,
  lockedVersionId?: string | null,
): ShareTarget {
  if (fileId !== undefined && folderId !== undefined) {
    throw AppError.validation('fileId 与 folderId 只能给出其中一个', 'folderId');
  }
  if (folderId !== undefined) {
    if (lockedVersionId !== undefined && lockedVersionId !== null) {
      throw AppError.validation('文件夹（集合）分享不能锁定版本：lockedVersionId 只用于单个文件', 'lockedVersionId');
    }
    return { folderId };
  }
  if (fileId === undefined) throw AppError.validation('fileId 或 folderId 必须给出其中一个', 'fileId');
  return { fileId };
}

/** Share links: creation with every policy, listing, lookup and revocation. */
@Injectable()
export class SharesService {
  constructor(
    private readonly db: DataSource,
    private readonly shares: SharesRepository,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly audit: AuditLog,
  ) {}

  /** Hashing is slow on purpose; it happens before any transaction opens. */
  async prepare(settings: ShareSettings): Promise<PreparedShare> {
    return { settings, passwordHash: settings.password === null ? null : await hashPassword(settings.password) };
  }

  /** Parses and prepares the `share` field of a multipart upload (400 naming the field when invalid). */
  async prepareFromField(raw: string): Promise<PreparedShare> {
    return this.prepare(await parseShareField(raw));
  }

  /** A link of the workspace `user`, made by the member `createdBy` (the owner itself in a personal workspace). */
  async create(user: AuthUser, input: CreateShareDto, createdBy = user.id): Promise<CreatedShare> {
    const { fileId, folderId, ...policy } = input;
    const target = shareTargetOf(fileId ?? undefined, folderId ?? undefined, policy.lockedVersionId);
    const prepared = await this.prepare(settingsOf(policy as ShareInputDto));
    return this.db.transaction((manager) => this.createWithin(manager, user, target, prepared, createdBy));
  }

  /**
   * Creates the share inside the caller's transaction (an upload creates file and share together).
   * The file row (a collection: the folder row) is locked FOR SHARE first
   * (SharesRepository.lockShareableFile / lockShareableFolder), so a concurrent trash, which
   * revokes the shares of what it trashes in its own transaction, either sees this share or runs
   * after it is refused.
   */
  async createWithin(
    manager: EntityManager,
    user: AuthUser,
    target: string | ShareTarget,
    prepared: PreparedShare,
    createdBy = user.id,
  ): Promise<CreatedShare> {
    const { settings, passwordHash } = prepared;
    const named: ShareTarget = typeof target === 'string' ? { fileId: target } : target;
    if ('folderId' in named) {
      if (!UUID.test(named.folderId) || !(await this.shares.lockShareableFolder(manager, user.id, named.folderId))) {
        throw AppError.notFound('文件夹不存在');
      }
    } else {
      await this.checkShareableFile(manager, user.id, named.fileId, settings.lockedVersionId);
    }
    if (settings.slug !== null && RESERVED_SLUGS.has(settings.slug.toLowerCase())) {
      throw new AppError(ErrorCode.SLUG_TAKEN, '该自定义短链接为系统保留，请换一个');
    }
    // A random token colliding is practically impossible; a few attempts make it impossible in effect.
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = settings.slug ?? randomShareToken();
      const row = await this.shares.insert(manager, { userId: user.id, target: named, token, passwordHash, settings, createdBy });
      if (row) {
        await this.audit.within(manager, {
          userId: user.id,
          action: AuditAction.shareCreated,
          targetId: row.id,
          details: { ...named },
        });
        return this.created(row);
      }
      if (settings.slug !== null) throw new AppError(ErrorCode.SLUG_TAKEN, `自定义短链接“${settings.slug}”已被占用`);
    }
    throw new AppError(ErrorCode.CONFLICT, '无法生成唯一的分享令牌，请重试');
  }

  /** The owner's live, not quarantined file (locked FOR SHARE), and the version to pin when one is named. */
  private async checkShareableFile(
    manager: EntityManager,
    userId: string,
    fileId: string,
    lockedVersionId: string | null,
  ): Promise<void> {
    if (!UUID.test(fileId)) throw AppError.notFound('文件不存在');
    const file = await this.shares.lockShareableFile(manager, userId, fileId);
    if (!file) throw AppError.notFound('文件不存在');
    if (file.currentStatus === 'INFECTED') throw new AppError(ErrorCode.INFECTED, '文件已被隔离（杀毒扫描判定不安全），不能分享');
    if (file.awaitingReview) {
      throw new AppError(ErrorCode.CONFLICT, '该文件经文档请求上传，尚待审核（review: PENDING）：接受后才能分享');
    }
    if (lockedVersionId !== null) {
      const versionError = AppError.validation('lockedVersionId 不是该文件的版本', 'lockedVersionId');
      if (!UUID.test(lockedVersionId)) throw versionError;
      const versionStatus = await this.shares.versionScanStatus(manager, fileId, lockedVersionId);
      if (versionStatus === null) throw versionError;
      if (versionStatus === 'INFECTED') throw new AppError(ErrorCode.INFECTED, '该版本已被隔离（杀毒扫描判定不安全），不能分享');
    }
  }

  /** The user's shares, newest first; only those of one file, or the collections of one folder, when given. */
  async list(userId: string, filter: { fileId?: string; folderId?: string } = {}): Promise<ShareDto[]> {
    const { fileId, folderId } = filter;
    if ((fileId !== undefined && !UUID.test(fileId)) || (folderId !== undefined && !UUID.test(folderId))) return [];
    const rows = await this.shares.list(userId, fileId ?? null, folderId ?? null);
    return rows.map(toShare);
  }

  async get(userId: string, id: string): Promise<ShareDto> {
    if (!UUID.test(id)) throw AppError.notFound('分享不存在');
    const row = await this.shares.findOwned(userId, id);
    if (!row) throw AppError.notFound('分享不存在');
    return toShare(row);
  }

  /** Idempotent: revoking twice keeps the first revokedAt. */
  async revoke(userId: string, id: string): Promise<ShareDto> {
    if (!UUID.test(id)) throw AppError.notFound('分享不存在');
    const revoked = await this.db.transaction(async (manager) => {
      const row = await this.shares.revoke(userId, id, manager);
      if (row) await this.audit.within(manager, { userId, action: AuditAction.shareRevoked, targetId: row.id });
      return row;
    });
    if (!revoked) throw AppError.notFound('分享不存在');
    return toShare(revoked);
  }

  viewUrl(ownerSegment: string, token: string): string {
    return `${this.runtime.env.PUBLIC_URL}${viewPath(ownerSegment, token)}`;
  }

  private created(row: ShareRow): CreatedShare {
    return { share: toShare(row), url: this.viewUrl(row.owner_segment, row.token) };
  }
}
