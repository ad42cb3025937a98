import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../common/sql.js';
import { namedQuery, namedStatementPool, type NamedStatementPool } from '../database/named-statements.js';
import { MAX_FOLDER_DEPTH } from '../files/folders.repository.js';
import type { FileKind } from '../shares/share-row.js';
import type { ShareNotify } from '../shares/share-notify.js';

export type ScanStatus = 'PENDING' | 'CLEAN' | 'INFECTED' | 'SCAN_ERROR';

/** Everything the gate needs, in one query: share, owner segment, file, and the version to serve. */
export interface ViewedShare {
  id: string;
  ownerId: string;
  ownerSegment: string;
  token: string;
  /** Null for a collection, which has no file of its own (then `folderId` is set). */
  fileId: string | null;
  /** The file's name; a collection's: the folder's. */
  fileName: string;
  /** Null for a collection. */
  fileKind: FileKind | null;
  /** A collection: the shared folder (its documents are looked up one by one). */
  folderId: string | null;
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
  /** The owner's notification choice; `off` once a `first` share's first visit was notified. */
  notify: ShareNotify;
  /** An administrator disabled the owner's account: every link of it is gone while it is. */
  ownerDisabled: boolean;
  /** An administrator took the link out of service after a report (it is revoked as well). */
  disabled: boolean;
  /** SHA-256 of the agreement a visitor must accept first; null: no agreement. */
  agreementSha256: string | null;
  agreementRequireName: boolean;
  /** When the link expires (epoch ms), for a gate row held in memory to judge by the clock; null: never. */
  expiresAt: number | null;
}

export type AdmissionOutcome =
  'ADMITTED' | 'NOT_FOUND' | 'REVOKED' | 'EXPIRED' | 'CONSUMED' | 'SESSION_TAKEN' | 'VISITOR_LIMIT' | 'USER_LIMIT';

export interface Admission {
  outcome: AdmissionOutcome;
  visitCount: number;
  uniqueVisitCount: number;
}

/** A share read by `share_open_visits`; `admission` is set when the visit was admitted in the same call. */
export interface OpenedShare {
  share: ViewedShare;
  admission: Admission | null;
}

interface ViewedShareRow {
  id: string;
  user_id: string;
  segment: string;
  token: string;
  file_id: string | null;
  name: string;
  kind: FileKind | null;
  folder_id?: string | null;
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
  owner_disabled: boolean;
  disabled: boolean;
  per_login_user_max_visits: number | null;
  watermark_enabled: boolean;
  watermark_text: string | null;
  copy_protection_enabled: boolean;
  burn_after_read_enabled: boolean;
  version_id: string | null;
  scan_status: ScanStatus | null;
  notify: ShareNotify | null;
  agreement_sha256: string | null;
  agreement_require_name: boolean | null;
  /** A Date from a row, an ISO string from the JSON `share_open_visits` answers. */
  expires_at?: Date | string | null;
}

function toViewedShare(row: ViewedShareRow): ViewedShare {
  return {
    id: row.id,
    ownerId: row.user_id,
    ownerSegment: row.segment,
    token: row.token,
    fileId: row.file_id,
    fileName: row.name,
    fileKind: row.kind,
    folderId: row.folder_id ?? null,
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
    ownerDisabled: row.owner_disabled,
    disabled: row.disabled,
    perLoginUserMaxVisits: row.per_login_user_max_visits,
    watermarkEnabled: row.watermark_enabled,
    watermarkText: row.watermark_text,
    copyProtection: row.copy_protection_enabled,
    burnAfterRead: row.burn_after_read_enabled,
    versionId: row.version_id,
    scanStatus: row.scan_status,
    notify: row.notify ?? 'off',
    agreementSha256: row.agreement_sha256 ?? null,
    agreementRequireName: row.agreement_require_name === true,
    expiresAt: row.expires_at == null ? null : new Date(row.expires_at).getTime(),
  };
}

// The owner's status and the share's own disabling by their keys, beside the gate row
// (share_open_visits adds them the same way).
const LOAD_SQL =
  'SELECT g.*, u.disabled_at IS NOT NULL AS owner_disabled, s.disabled_at IS NOT NULL AS disabled FROM share_gate g ' +
  'JOIN users u ON u.id = g.user_id JOIN shares s ON s.id = g.id WHERE lower(g.token) = lower($1)';
const OPEN_SQL = 'SELECT idx, outcome, visit_no, unique_no, gate FROM share_open_visits($1, $2, $3::text[]) ORDER BY idx';

const ADMIT_SQL =
  'SELECT idx, outcome, visit_no, unique_no FROM share_admit_visits($1, $2::text[], $3::uuid[], $4::text[]) ORDER BY idx';

/**
 * A frame fetch in one round trip: the share must still be there, not revoked, not trashed, not
 * expired, its file not quarantined, and the ticket's version still CLEAN (and, for a collection,
 * a version of a live file in the folder's subtree now); only then is the
 * ticket's id recorded, and a ticket recorded already (used once, on any replica) yields no row.
 * Expiry is judged by the database's clock, the one the sweep deletes by. `consumed` is not
 * looked at: the visit that minted the ticket may have been the share's last allowed one.
 */
// A used ticket is written without waiting for the WAL flush (like an uncapped visit): every
// replica sees it at once; only a database crash could forget the last milliseconds of them,
// letting the same visitor load a frame of a view it was admitted to once more before expiry.
const USE_FRAME_TICKET_SQL = `
  WITH RECURSIVE async_commit AS (
    SELECT set_config('synchronous_commit', 'off', true)
  ), live AS (
    SELECT g.file_id, g.folder_id, g.watermark_enabled, g.watermark_text, g.agreement_sha256
    FROM share_gate g
    JOIN users sharer ON sharer.id = g.user_id AND sharer.disabled_at IS NULL
    WHERE g.id = $1::uuid AND NOT g.revoked AND NOT g.trashed AND NOT g.expired AND g.scan_status = 'CLEAN'
      AND to_timestamp($4::bigint) > now()
  ), tree AS (
    -- A collection's live folders: the ticket's version must belong to a live file in one of them now.
    SELECT fo.id, 1 AS depth FROM live JOIN folders fo ON fo.id = live.folder_id AND fo.deleted_at IS NULL
    UNION ALL
    SELECT c.id, t.depth + 1 FROM folders c JOIN tree t ON c.parent_id = t.id
    WHERE c.deleted_at IS NULL AND t.depth < ${MAX_FOLDER_DEPTH}
  ), gate AS (
    SELECT live.watermark_enabled, live.watermark_text, live.agreement_sha256
    FROM live
    JOIN file_versions v ON v.id = $2::uuid AND v.scan_status = 'CLEAN'
    WHERE v.file_id = live.file_id
       -- (as a single share's gate row, a quarantined current version takes its older CLEAN ones offline)
       OR EXISTS (SELECT 1 FROM files vf LEFT JOIN file_versions cv ON cv.id = vf.current_version_id
                  WHERE vf.id = v.file_id AND vf.deleted_at IS NULL AND cv.scan_status IS DISTINCT FROM 'INFECTED'
                    AND vf.folder_id IN (SELECT id FROM tree))
  ), used AS (
    INSERT INTO frame_tickets (id, expires_at)
    SELECT $3::text, to_timestamp($4::bigint) FROM gate
    ON CONFLICT (id) DO NOTHING
    RETURNING id
  )
  SELECT gate.watermark_enabled, gate.watermark_text,
         (SELECT email FROM users WHERE id = $5::uuid AND email_verified_at IS NOT NULL) AS email,
         (SELECT a.name FROM share_acceptances a
           WHERE a.share_id = $1::uuid AND a.visitor_id = $6 AND a.agreement_sha256 = gate.agreement_sha256) AS accepted_name
  FROM gate CROSS JOIN used CROSS JOIN async_commit`;

/** What the frame needs of a share whose ticket was just used. */
export interface FrameAdmission {
  watermarkEnabled: boolean;
  watermarkText: string | null;
  /** The e-mail of the account the ticket names for the watermark, if any, and only once it is proven. */
  email: string | null;
  /** The name on the visitor's acceptance of the share's current agreement, if any. */
  acceptedName: string | null;
}

/** One visit waiting for admission: who is visiting, as the gate established it. */
export interface VisitRequest {
  visitorKey: string;
  userId: string | null;
  browserKey: string | null;
}

interface OpenedRow {
  idx: number;
  outcome: AdmissionOutcome | null;
  visit_no: number;
  unique_no: number;
  gate: ViewedShareRow | null;
}

/**
 * The viewer's SQL, as named prepared statements on TypeORM's own pool: planning the gate's
 * four-way join costs several times more than running it, so each pooled connection plans it
 * once. A plain view is one `openAll` round trip (shared by the visits that arrive together);
 * a view through a policy is `load` (or `openAll`) then `admitAll`.
 */
@Injectable()
export class ShareViewRepository {
  private readonly pool: NamedStatementPool | null;

  constructor(private readonly db: DataSource) {
    this.pool = namedStatementPool(db);
  }

  private hot<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
    return namedQuery<T>(this.db, this.pool, name, text, values);
  }

  async load(token: string): Promise<ViewedShare | null> {
    const rows = await this.hot<ViewedShareRow>('viewer_load_share', LOAD_SQL, [token]);
    return rows[0] ? toViewedShare(rows[0]) : null;
  }

  /** One result per visitor key, in order; null for every visit when there is no such link. */
  async openAll(segment: string | null, token: string, visitorKeys: string[]): Promise<Array<OpenedShare | null>> {
    const rows = await this.hot<OpenedRow>('viewer_open_visits', OPEN_SQL, [token, segment, visitorKeys]);
    const gate = rows[0]?.gate;
    if (!gate) return visitorKeys.map(() => null);
    const share = toViewedShare(gate);
    const admitted = rows.slice(1);
    if (admitted.length !== 0 && admitted.length !== visitorKeys.length) {
      throw new Error(`opening answered ${admitted.length} admissions for ${visitorKeys.length} visits`);
    }
    return visitorKeys.map((_, i) => {
      const row = admitted[i];
      return {
        share,
        admission: row ? { outcome: row.outcome!, visitCount: row.visit_no, uniqueVisitCount: row.unique_no } : null,
      };
    });
  }

  /**
   * Judges the visits in order and counts those admitted, in one transaction under the share's row
   * lock (see the share_admit_visits migration). One result per visit, in the same order.
   */
  async admitAll(shareId: string, visits: readonly VisitRequest[]): Promise<Admission[]> {
    const rows = await this.hot<{ idx: number; outcome: AdmissionOutcome; visit_no: number; unique_no: number }>(
      'viewer_admit_visits',
      ADMIT_SQL,
      [shareId, visits.map((v) => v.visitorKey), visits.map((v) => v.userId), visits.map((v) => v.browserKey)],
    );
    if (rows.length !== visits.length) throw new Error(`admission answered ${rows.length} rows for ${visits.length} visits`);
    return rows.map((row) => ({ outcome: row.outcome, visitCount: row.visit_no, uniqueVisitCount: row.unique_no }));
  }

  /**
   * Uses a frame ticket: null when the share no longer shows its document or the ticket was used
   * before. See USE_FRAME_TICKET_SQL.
   */
  async useFrameTicket(ticket: {
    id: string;
    shareId: string;
    versionId: string;
    expiresAt: number;
    userId: string | null;
    /** The visit log's id of the visitor the ticket was minted for. */
    visitorId: string;
  }): Promise<FrameAdmission | null> {
    const rows = await this.hot<{
      watermark_enabled: boolean;
      watermark_text: string | null;
      email: string | null;
      accepted_name: string | null;
    }>('viewer_use_frame_ticket', USE_FRAME_TICKET_SQL, [
      ticket.shareId,
      ticket.versionId,
      ticket.id,
      ticket.expiresAt,
      ticket.userId,
      ticket.visitorId,
    ]);
    const row = rows[0];
    return row
      ? {
          watermarkEnabled: row.watermark_enabled,
          watermarkText: row.watermark_text,
          email: row.email,
          acceptedName: row.accepted_name,
        }
      : null;
  }

  /** Deletes the records of expired frame tickets (for the periodic sweep); returns how many went. */
  deleteExpiredFrameTickets(): Promise<number> {
    return deleteExpiredFrameTickets(this.db);
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

  /**
   * Files a report; it keeps the owner, the token and the file name the share had, so it still
   * says what was reported after the share is gone. Null when the share went, or was revoked, in the meantime.
   */
  async report(shareId: string, reason: string, ipPrefix: string): Promise<Date | null> {
    const rows: Array<{ created_at: Date }> = await this.db.query(
      `INSERT INTO share_reports (share_id, owner_id, share_token, file_name, reason, ip_prefix)
       SELECT s.id, s.user_id, s.token, coalesce(f.name, fo.name), $2, $3 FROM shares s
         LEFT JOIN files f ON f.id = s.file_id LEFT JOIN folders fo ON fo.id = s.folder_id
       WHERE s.id = $1 AND s.revoked_at IS NULL
       RETURNING created_at`,
      [shareId, reason, ipPrefix],
    );
    return rows[0]?.created_at ?? null;
  }
}

type Executor = Pick<DataSource | EntityManager, 'query'>;

/**
 * Deletes the records of used frame tickets whose expiry has passed (by the database's clock,
 * the one the frame route judges expiry by, so a deleted record can never be needed again).
 * For the periodic sweep; returns how many rows went.
 */
export async function deleteExpiredFrameTickets(db: Executor): Promise<number> {
  const rows = returnedRows<{ n: number }>(
    await db.query(
      'WITH gone AS (DELETE FROM frame_tickets WHERE expires_at < now() RETURNING 1) SELECT count(*)::int AS n FROM gone',
    ),
  );
  return rows[0]?.n ?? 0;
}
