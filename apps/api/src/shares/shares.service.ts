import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-context.js';
import { hashPassword } from '../auth/password-hasher.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { parseShareField, settingsOf, type ShareSettings } from './share-input.js';
import { RESERVED_SLUGS, SHARE_COLUMNS, randomShareToken, toShare, viewPath, type ShareRow } from './share-row.js';
import type { CreateShareDto, ShareDto, ShareInputDto } from './share.dto.js';

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

/** Share links: creation with every policy, listing, lookup and revocation. */
@Injectable()
export class SharesService {
  constructor(
    private readonly db: DataSource,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  /** Hashing is slow on purpose; it happens before any transaction opens. */
  async prepare(settings: ShareSettings): Promise<PreparedShare> {
    return { settings, passwordHash: settings.password === null ? null : await hashPassword(settings.password) };
  }

  /** Parses and prepares the `share` field of a multipart upload (400 naming the field when invalid). */
  async prepareFromField(raw: string): Promise<PreparedShare> {
    return this.prepare(await parseShareField(raw));
  }

  async create(user: AuthUser, input: CreateShareDto): Promise<CreatedShare> {
    const { fileId, ...policy } = input;
    const prepared = await this.prepare(settingsOf(policy as ShareInputDto));
    return this.db.transaction((manager) => this.createWithin(manager, user, fileId, prepared));
  }

  /**
   * Creates the share inside the caller's transaction (an upload creates file and share together).
   * The file row is locked FOR SHARE so a concurrent trash, which revokes every share of the file
   * in its own transaction, either sees this share or runs after it is refused.
   */
  async createWithin(manager: EntityManager, user: AuthUser, fileId: string, prepared: PreparedShare): Promise<CreatedShare> {
    const { settings, passwordHash } = prepared;
    if (!UUID.test(fileId)) throw AppError.notFound('文件不存在');
    const files: Array<{ current_status: string | null }> = await manager.query(
      `SELECT v.scan_status AS current_status FROM files f LEFT JOIN file_versions v ON v.id = f.current_version_id
       WHERE f.id = $1 AND f.user_id = $2 AND f.deleted_at IS NULL FOR SHARE OF f`,
      [fileId, user.id],
    );
    if (!files[0]) throw AppError.notFound('文件不存在');
    if (files[0].current_status === 'INFECTED') throw new AppError(ErrorCode.INFECTED, '文件已被隔离（杀毒扫描判定不安全），不能分享');
    if (settings.lockedVersionId !== null) {
      const versionError = AppError.validation('lockedVersionId 不是该文件的版本', 'lockedVersionId');
      if (!UUID.test(settings.lockedVersionId)) throw versionError;
      const versions: Array<{ scan_status: string }> = await manager.query(
        `SELECT scan_status FROM file_versions WHERE id = $1 AND file_id = $2`,
        [settings.lockedVersionId, fileId],
      );
      if (!versions[0]) throw versionError;
      if (versions[0].scan_status === 'INFECTED') throw new AppError(ErrorCode.INFECTED, '该版本已被隔离（杀毒扫描判定不安全），不能分享');
    }
    if (settings.slug !== null && RESERVED_SLUGS.has(settings.slug.toLowerCase())) {
      throw new AppError(ErrorCode.SLUG_TAKEN, '该自定义短链接为系统保留，请换一个');
    }
    // A random token colliding is practically impossible; a few attempts make it impossible in effect.
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = settings.slug ?? randomShareToken();
      const rows: ShareRow[] = await manager.query(
        `WITH s AS (
           INSERT INTO shares (user_id, file_id, token, slug, password_hash, expires_at, max_visits, per_visitor_max_visits,
             per_login_user_max_visits, one_time, require_login, watermark_enabled, watermark_text, copy_protection_enabled,
             burn_after_read_enabled, locked_version_id, one_session, email_allowlist)
           VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + make_interval(days => $6::int) END,
             $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
           ON CONFLICT DO NOTHING
           RETURNING *
         )
         SELECT ${SHARE_COLUMNS} FROM s JOIN files f ON f.id = s.file_id JOIN users u ON u.id = s.user_id`,
        [
          user.id,
          fileId,
          token,
          settings.slug,
          passwordHash,
          settings.expiresInDays,
          settings.maxVisits,
          settings.perVisitorMaxVisits,
          settings.perLoginUserMaxVisits,
          settings.oneTime,
          settings.requireLogin,
          settings.watermarkEnabled,
          settings.watermarkText,
          settings.copyProtectionEnabled,
          settings.burnAfterReadEnabled,
          settings.lockedVersionId,
          settings.oneSession,
          settings.emailAllowlist,
        ],
      );
      if (rows[0]) return this.created(rows[0]);
      if (settings.slug !== null) throw new AppError(ErrorCode.SLUG_TAKEN, `自定义短链接“${settings.slug}”已被占用`);
    }
    throw new AppError(ErrorCode.CONFLICT, '无法生成唯一的分享令牌，请重试');
  }

  async list(userId: string, fileId?: string): Promise<ShareDto[]> {
    if (fileId !== undefined && !UUID.test(fileId)) return [];
    const rows: ShareRow[] = await this.db.query(
      `SELECT ${SHARE_COLUMNS} FROM shares s JOIN files f ON f.id = s.file_id JOIN users u ON u.id = s.user_id
       WHERE s.user_id = $1 AND ($2::uuid IS NULL OR s.file_id = $2::uuid)
       ORDER BY s.created_at DESC, s.id`,
      [userId, fileId ?? null],
    );
    return rows.map(toShare);
  }

  async get(userId: string, id: string): Promise<ShareDto> {
    if (!UUID.test(id)) throw AppError.notFound('分享不存在');
    const rows: ShareRow[] = await this.db.query(
      `SELECT ${SHARE_COLUMNS} FROM shares s JOIN files f ON f.id = s.file_id JOIN users u ON u.id = s.user_id
       WHERE s.id = $1 AND s.user_id = $2`,
      [id, userId],
    );
    if (!rows[0]) throw AppError.notFound('分享不存在');
    return toShare(rows[0]);
  }

  /** Idempotent: revoking twice keeps the first revokedAt. */
  async revoke(userId: string, id: string): Promise<ShareDto> {
    if (!UUID.test(id)) throw AppError.notFound('分享不存在');
    const rows: ShareRow[] = await this.db.query(
      `WITH s AS (
         UPDATE shares SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND user_id = $2 RETURNING *
       )
       SELECT ${SHARE_COLUMNS} FROM s JOIN files f ON f.id = s.file_id JOIN users u ON u.id = s.user_id`,
      [id, userId],
    );
    if (!rows[0]) throw AppError.notFound('分享不存在');
    return toShare(rows[0]);
  }

  viewUrl(ownerSegment: string, token: string): string {
    return `${this.runtime.env.PUBLIC_URL}${viewPath(ownerSegment, token)}`;
  }

  private created(row: ShareRow): CreatedShare {
    return { share: toShare(row), url: this.viewUrl(row.owner_segment, row.token) };
  }
}
