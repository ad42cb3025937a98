import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FileKind } from '../shares/share-row.js';

export type ScanStatus = 'PENDING' | 'CLEAN' | 'INFECTED' | 'SCAN_ERROR';

/** Everything the gate needs, in one query: share, owner segment, file, and the version to serve. */
export interface ViewedShare {
  id: string;
  ownerId: string;
  ownerSegment: string;
  token: string;
  fileId: string;
  fileName: string;
  fileKind: FileKind;
  trashed: boolean;
  revoked: boolean;
  consumed: boolean;
  expired: boolean;
  hasPassword: boolean;
  oneTime: boolean;
  requireLogin: boolean;
  emailAllowlist: string[] | null;
  oneSession: boolean;
  sessionOwner: string | null;
  perLoginUserMaxVisits: number | null;
  watermarkEnabled: boolean;
  watermarkText: string | null;
  copyProtection: boolean;
  burnAfterRead: boolean;
  versionId: string | null;
  scanStatus: ScanStatus | null;
}

export type AdmissionOutcome =
  | 'ADMITTED'
  | 'NOT_FOUND'
  | 'REVOKED'
  | 'EXPIRED'
  | 'CONSUMED'
  | 'SESSION_TAKEN'
  | 'VISITOR_LIMIT'
  | 'USER_LIMIT';

export interface Admission {
  outcome: AdmissionOutcome;
  visitCount: number;
  uniqueVisitCount: number;
}

interface ViewedShareRow {
  id: string;
  user_id: string;
  segment: string;
  token: string;
  file_id: string;
  name: string;
  kind: FileKind;
  trashed: boolean;
  revoked: boolean;
  consumed: boolean;
  expired: boolean;
  has_password: boolean;
  one_time: boolean;
  require_login: boolean;
  email_allowlist: string[] | null;
  one_session: boolean;
  session_owner: string | null;
  per_login_user_max_visits: number | null;
  watermark_enabled: boolean;
  watermark_text: string | null;
  copy_protection_enabled: boolean;
  burn_after_read_enabled: boolean;
  version_id: string | null;
  scan_status: ScanStatus | null;
}

const LOAD_SQL = `
  SELECT s.id, s.user_id, u.segment, s.token, s.file_id, f.name, f.kind, f.deleted_at IS NOT NULL AS trashed,
    s.revoked_at IS NOT NULL AS revoked,
    (s.consumed_at IS NOT NULL OR (s.max_visits IS NOT NULL AND s.visit_count >= s.max_visits)) AS consumed,
    (s.expires_at IS NOT NULL AND s.expires_at <= now()) AS expired,
    s.password_hash IS NOT NULL AS has_password, s.one_time, s.require_login, s.email_allowlist, s.one_session,
    s.session_owner, s.per_login_user_max_visits, s.watermark_enabled, s.watermark_text, s.copy_protection_enabled,
    s.burn_after_read_enabled, v.id AS version_id, v.scan_status
  FROM shares s
  JOIN users u ON u.id = s.user_id
  JOIN files f ON f.id = s.file_id
  LEFT JOIN file_versions v ON v.id = coalesce(s.locked_version_id, f.current_version_id)
  WHERE lower(s.token) = lower($1)`;

/** The viewer's SQL. The hot path is `load` then `admit`: two round trips per view. */
@Injectable()
export class ShareViewRepository {
  constructor(private readonly db: DataSource) {}

  async load(token: string): Promise<ViewedShare | null> {
    const rows: ViewedShareRow[] = await this.db.query(LOAD_SQL, [token]);
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      ownerId: row.user_id,
      ownerSegment: row.segment,
      token: row.token,
      fileId: row.file_id,
      fileName: row.name,
      fileKind: row.kind,
      trashed: row.trashed,
      revoked: row.revoked,
      consumed: row.consumed,
      expired: row.expired,
      hasPassword: row.has_password,
      oneTime: row.one_time,
      requireLogin: row.require_login,
      emailAllowlist: row.email_allowlist,
      oneSession: row.one_session,
      sessionOwner: row.session_owner,
      perLoginUserMaxVisits: row.per_login_user_max_visits,
      watermarkEnabled: row.watermark_enabled,
      watermarkText: row.watermark_text,
      copyProtection: row.copy_protection_enabled,
      burnAfterRead: row.burn_after_read_enabled,
      versionId: row.version_id,
      scanStatus: row.scan_status,
    };
  }

  /** Counts one visit if every cap and state still allows it (see the share_admit_visit migration). */
  async admit(shareId: string, visitorKey: string, userId: string | null, browserKey: string | null): Promise<Admission> {
    const rows: Array<{ outcome: AdmissionOutcome; visit_count: number; unique_visit_count: number }> = await this.db.query(
      'SELECT outcome, visit_count, unique_visit_count FROM share_admit_visit($1, $2, $3, $4)',
      [shareId, visitorKey, userId, browserKey],
    );
    const row = rows[0]!;
    return { outcome: row.outcome, visitCount: row.visit_count, uniqueVisitCount: row.unique_visit_count };
  }

  async passwordHash(shareId: string): Promise<string | null> {
    const rows: Array<{ password_hash: string | null }> = await this.db.query('SELECT password_hash FROM shares WHERE id = $1', [
      shareId,
    ]);
    return rows[0]?.password_hash ?? null;
  }

  /** Content of a CLEAN version and its cached rendering (when made by the current renderer). */
  async version(versionId: string, renderMark: string): Promise<{ content: string | null; rendered: string | null } | null> {
    const rows: Array<{ content: string | null; rendered: string | null }> = await this.db.query(
      `SELECT CASE WHEN starts_with(coalesce(rendered_html, ''), $2) THEN NULL ELSE content END AS content,
              CASE WHEN starts_with(coalesce(rendered_html, ''), $2) THEN rendered_html END AS rendered
       FROM file_versions WHERE id = $1 AND scan_status = 'CLEAN'`,
      [versionId, renderMark],
    );
    return rows[0] ?? null;
  }

  async storeRendering(versionId: string, rendered: string): Promise<void> {
    await this.db.query('UPDATE file_versions SET rendered_html = $2 WHERE id = $1', [versionId, rendered]);
  }

  async report(shareId: string, reason: string, ipPrefix: string): Promise<Date> {
    const rows: Array<{ created_at: Date }> = await this.db.query(
      'INSERT INTO share_reports (share_id, reason, ip_prefix) VALUES ($1, $2, $3) RETURNING created_at',
      [shareId, reason, ipPrefix],
    );
    return rows[0]!.created_at;
  }
}
