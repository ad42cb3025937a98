import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Columns } from '../database/rows.js';
import type { ShareSettings } from './share-input.js';
import { SHARE_COLUMNS, SHARE_JOINS, type ShareRow, type ShareTarget } from './share-row.js';

/** One hour of a share's visit statistics; hours without a visit count 0. */
// `hour` comes from generate_series and `visits` through coalesce(h.visits, 0): the table's types.
export type VisitHourRow = Columns<'share_visit_hours', 'hour' | 'visits'>;

/**
 * SQL for the `shares` table and the hourly visit buckets the viewer writes. Ids reach these
 * methods already checked to be UUIDs. The methods that take a manager run inside the caller's
 * transaction (an upload creates its file and its share together).
 */
@Injectable()
export class SharesRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Locks the owner's live file FOR SHARE and reads the scan status of its current version, or
   * null when the user has no such file. A concurrent trash, which revokes every share of the file
   * in its own transaction, either sees the share inserted after this or runs after it.
   */
  async lockShareableFile(
    manager: EntityManager,
    userId: string,
    fileId: string,
  ): Promise<{ currentStatus: string | null; awaitingReview: boolean } | null> {
    // A document request's upload stays unshareable until its owner accepts it (request_uploads.review).
    const files: Array<{ current_status: string | null; awaiting_review: boolean }> = await manager.query(
      `SELECT v.scan_status AS current_status,
              EXISTS (SELECT 1 FROM request_uploads ru WHERE ru.file_id = f.id AND ru.review = 'PENDING') AS awaiting_review
       FROM files f LEFT JOIN file_versions v ON v.id = f.current_version_id
       WHERE f.id = $1 AND f.user_id = $2 AND f.deleted_at IS NULL FOR SHARE OF f`,
      [fileId, userId],
    );
    return files[0] ? { currentStatus: files[0].current_status, awaitingReview: files[0].awaiting_review } : null;
  }

  /**
   * Locks the owner's live folder FOR SHARE; false when the user has no such folder. A concurrent
   * trash of it (or of a folder above it) updates the row, so it either sees the collection share
   * inserted after this or runs after it, and the share is then refused.
   */
  async lockShareableFolder(manager: EntityManager, userId: string, folderId: string): Promise<boolean> {
    const folders: unknown[] = await manager.query(
      'SELECT 1 FROM folders WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR SHARE',
      [folderId, userId],
    );
    return folders.length > 0;
  }

  /** The scan status of one version of the file, or null when the file has no such version. */
  async versionScanStatus(manager: EntityManager, fileId: string, versionId: string): Promise<string | null> {
    const versions: Array<{ scan_status: string }> = await manager.query(
      `SELECT scan_status FROM file_versions WHERE id = $1 AND file_id = $2`,
      [versionId, fileId],
    );
    return versions[0]?.scan_status ?? null;
  }

  /** Inserts a share under `token`; null when the token or slug is taken (ON CONFLICT DO NOTHING). */
  async insert(
    manager: EntityManager,
    share: {
      userId: string;
      target: ShareTarget;
      token: string;
      passwordHash: string | null;
      settings: ShareSettings;
      /** The member who makes it; the owner itself in a personal workspace. */
      createdBy: string;
    },
  ): Promise<ShareRow | null> {
    const { settings } = share;
    const rows: ShareRow[] = await manager.query(
      `WITH s AS (
         INSERT INTO shares (user_id, file_id, folder_id, token, slug, password_hash, expires_at, max_visits, per_visitor_max_visits,
           per_login_user_max_visits, one_time, require_login, watermark_enabled, watermark_text, copy_protection_enabled,
           burn_after_read_enabled, locked_version_id, one_session, email_allowlist, notify, agreement_text, agreement_require_name,
           created_by)
         VALUES ($1, $2, $20, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + make_interval(days => $6::int) END,
           $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $21, $22, $23)
         ON CONFLICT DO NOTHING
         RETURNING *
       )
       SELECT ${SHARE_COLUMNS} FROM s ${SHARE_JOINS}`,
      [
        share.userId,
        'fileId' in share.target ? share.target.fileId : null,
        share.token,
        settings.slug,
        share.passwordHash,
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
        settings.notify,
        'folderId' in share.target ? share.target.folderId : null,
        settings.agreement?.text ?? null,
        settings.agreement?.requireName ?? false,
        share.createdBy,
      ],
    );
    return rows[0] ?? null;
  }

  /** The user's shares, newest first; only those of one file, or the collections of one folder, when given. */
  async list(userId: string, fileId: string | null, folderId: string | null = null): Promise<ShareRow[]> {
    return this.db.query(
      `SELECT ${SHARE_COLUMNS} FROM shares s ${SHARE_JOINS}
       WHERE s.user_id = $1 AND ($2::uuid IS NULL OR s.file_id = $2::uuid) AND ($3::uuid IS NULL OR s.folder_id = $3::uuid)
       ORDER BY s.created_at DESC, s.id`,
      [userId, fileId, folderId],
    );
  }

  async findOwned(userId: string, id: string): Promise<ShareRow | null> {
    const rows: ShareRow[] = await this.db.query(
      `SELECT ${SHARE_COLUMNS} FROM shares s ${SHARE_JOINS}
       WHERE s.id = $1 AND s.user_id = $2`,
      [id, userId],
    );
    return rows[0] ?? null;
  }

  /** Revokes the share once: revoking again keeps the first revoked_at. Null when the user has no such share. */
  async revoke(userId: string, id: string, manager: EntityManager = this.db.manager): Promise<ShareRow | null> {
    const rows: ShareRow[] = await manager.query(
      `WITH s AS (
         UPDATE shares SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND user_id = $2 RETURNING *
       )
       SELECT ${SHARE_COLUMNS} FROM s ${SHARE_JOINS}`,
      [id, userId],
    );
    return rows[0] ?? null;
  }

  /** Visits per hour of the last `hours` hours, the current one last. */
  async hourlyVisits(shareId: string, hours: number): Promise<VisitHourRow[]> {
    return this.db.query(
      `SELECT g.hour, coalesce(h.visits, 0)::int AS visits
         FROM generate_series(date_trunc('hour', now()) - make_interval(hours => $2::int - 1), date_trunc('hour', now()), interval '1 hour') AS g(hour)
         LEFT JOIN share_visit_hours h ON h.share_id = $1 AND h.hour = g.hour
        ORDER BY g.hour`,
      [shareId, hours],
    );
  }
}
