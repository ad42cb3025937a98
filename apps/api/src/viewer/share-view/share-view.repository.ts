import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../../common/sql.js';
import { namedQuery, namedStatementPool, type NamedStatementPool } from '../../database/named-statements.js';
import type { Columns, Row } from '../../database/rows.js';
import { MAX_FOLDER_DEPTH } from '../../files/folders/folders.repository.js';
import type { FileKind } from '../../shares/share-row.js';
import type { ShareNotify } from '../../shares/share-notify.js';

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
  /** Raised by the database at every change of the password: an unlock names the version it proved. */
  passwordVersion: number;
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

/**
 * LOAD_SQL's row: the share_gate view's columns (g.*), and two computed ones; `share_open_visits`
 * answers the same as JSON. PostgreSQL gives every column of a view as nullable: the narrowings
 * are what the view's definition guarantees (the share's and its owner's own NOT NULL columns,
 * IS NOT NULL tests, a file's or a folder's name).
 */
type ViewedShareRow = Columns<
  'share_gate',
  | 'id'
  | 'user_id'
  | 'segment'
  | 'token'
  | 'file_id'
  | 'name'
  | 'kind'
  | 'trashed'
  | 'revoked'
  | 'consumed'
  | 'expired'
  | 'has_password'
  | 'password_version'
  | 'one_time'
  | 'require_login'
  | 'email_allowlist'
  | 'one_session'
  | 'session_owner'
  | 'per_login_user_max_visits'
  | 'watermark_enabled'
  | 'watermark_text'
  | 'copy_protection_enabled'
  | 'burn_after_read_enabled'
  | 'version_id'
  | 'scan_status'
  | 'notify'
  | 'agreement_sha256'
  | 'agreement_require_name',
  {
    id: string;
    user_id: string;
    segment: string;
    token: string;
    name: string;
    kind: FileKind | null;
    trashed: boolean;
    revoked: boolean;
    consumed: boolean;
    expired: boolean;
    has_password: boolean;
    password_version: number;
    one_time: boolean;
    require_login: boolean;
    one_session: boolean;
    watermark_enabled: boolean;
    copy_protection_enabled: boolean;
    burn_after_read_enabled: boolean;
    scan_status: ScanStatus | null;
    notify: ShareNotify | null;
  }
> &
  Partial<Columns<'share_gate', 'folder_id'>> & {
    /** Computed: u.disabled_at IS NOT NULL. */
    owner_disabled: boolean;
    /** Computed: s.disabled_at IS NOT NULL. */
    disabled: boolean;
    /** The view's expires_at: a Date from a row, an ISO string from the JSON `share_open_visits` answers. */
    expires_at?: Row<'share_gate'>['expires_at'] | string;
  };

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
    passwordVersion: row.password_version,
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

// In no particular order: admitAll places each row by its idx (a sort would cost every call an executor node).
const ADMIT_SQL = 'SELECT idx, outcome, visit_no, unique_no FROM share_admit_visits($1, $2::text[], $3::uuid[], $4::text[])';

/**
 * The frame fetches of one share's version, judged together in one round trip: the share must
 * still be there, not revoked, not trashed, not expired, its owner not disabled, its file not
 * quarantined and the ticket's version still CLEAN (and, for a collection, a version of a live
 * file in the folder's subtree now); only then are the batch's tickets recorded. A ticket past its
 * expiry, recorded already (used once, on any replica) or given earlier in the same batch yields
 * no row; one row per admitted ticket, by its 1-based position in the arrays. Expiry is judged by
 * the database's clock, the one the sweep deletes by. `consumed` is not looked at: the visit that
 * minted a ticket may have been the share's last allowed one.
 *
 * `live` reads the share's row and the ticket's version by their keys instead of `share_gate`,
 * whose newest-CLEAN-version lateral (and owner segment, names, counters) the frame does not
 * need. It asks what the gate row answered: the version must be a CLEAN version of the share's
 * file, and the version the share serves must be CLEAN: the pinned one when pinned (the foreign
 * key keeps a pin pointing at a version), otherwise the newest CLEAN one, which is taken offline
 * exactly when the current version is quarantined (the ticket's CLEAN version proves there is
 * one). A collection's document must be a live file whose current version is not quarantined, in
 * a live folder of the shared one's subtree: `above` walks up from the file's folder to the shared
 * one, a key lookup per level and none for a file share, instead of down the whole subtree (a scan
 * of `folders` per level: no index leads with `parent_id`), with the same depth bound.
 *
 * The tickets are inserted in id order, so two batches that share tickets (two replicas) wait for
 * each other's entries in the same order and cannot deadlock.
 */
// Used tickets are written without waiting for the WAL flush (like an uncapped visit): every
// replica sees them at once; only a database crash could forget the last milliseconds of them,
// letting the same visitor load a frame of a view it was admitted to once more before expiry.
const USE_FRAME_TICKETS_SQL = `
  WITH RECURSIVE async_commit AS (
    SELECT set_config('synchronous_commit', 'off', true)
  ), live AS (
    SELECT s.folder_id, s.watermark_enabled, s.watermark_text, s.agreement_sha256, f.folder_id AS file_folder_id
    FROM shares s
    JOIN users sharer ON sharer.id = s.user_id AND sharer.disabled_at IS NULL
    JOIN file_versions v ON v.id = $2::uuid AND v.scan_status = 'CLEAN'
    JOIN files f ON f.id = v.file_id AND f.deleted_at IS NULL
    LEFT JOIN file_versions cur ON cur.id = f.current_version_id
    LEFT JOIN file_versions pinned ON pinned.id = s.locked_version_id
    LEFT JOIN folders fo ON fo.id = s.folder_id
    WHERE s.id = $1::uuid AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now())
      AND CASE WHEN s.folder_id IS NOT NULL THEN fo.deleted_at IS NULL AND cur.scan_status IS DISTINCT FROM 'INFECTED'
               WHEN s.locked_version_id IS NOT NULL THEN f.id = s.file_id AND pinned.scan_status = 'CLEAN'
               ELSE f.id = s.file_id AND cur.scan_status IS DISTINCT FROM 'INFECTED' END
  ), above AS (
    -- A collection's document: its folder and the live folders above it, up to the shared one.
    SELECT fo.id, fo.parent_id, live.folder_id AS shared_id, 1 AS depth
    FROM live JOIN folders fo ON fo.id = live.file_folder_id AND fo.deleted_at IS NULL
    WHERE live.folder_id IS NOT NULL
    UNION ALL
    SELECT p.id, p.parent_id, a.shared_id, a.depth + 1
    FROM above a JOIN folders p ON p.id = a.parent_id AND p.deleted_at IS NULL
    WHERE a.id <> a.shared_id AND a.depth < ${MAX_FOLDER_DEPTH}
  ), gate AS (
    SELECT live.watermark_enabled, live.watermark_text, live.agreement_sha256
    FROM live
    WHERE live.folder_id IS NULL OR EXISTS (SELECT FROM above WHERE above.id = above.shared_id)
  ), first_use AS (
    -- Each fresh ticket once, at its first position in the batch.
    SELECT DISTINCT ON (t.id) t.idx, t.id, to_timestamp(t.expires_at) AS expires_at, t.user_id, t.visitor_id
    FROM unnest($3::text[], $4::bigint[], $5::uuid[], $6::text[]) WITH ORDINALITY AS t(id, expires_at, user_id, visitor_id, idx)
    WHERE to_timestamp(t.expires_at) > now() AND EXISTS (SELECT FROM gate)
    ORDER BY t.id, t.idx
  ), used AS (
    INSERT INTO frame_tickets (id, expires_at)
    SELECT id, expires_at FROM first_use ORDER BY id
    ON CONFLICT (id) DO NOTHING
    RETURNING id
  )
  SELECT first_use.idx::int AS idx, gate.watermark_enabled, gate.watermark_text,
         (SELECT u.email FROM users u WHERE u.id = first_use.user_id AND u.email_verified_at IS NOT NULL) AS email,
         (SELECT a.name FROM share_acceptances a
           WHERE a.share_id = $1::uuid AND a.visitor_id = first_use.visitor_id
             AND a.agreement_sha256 = gate.agreement_sha256) AS accepted_name
  FROM used
  JOIN first_use ON first_use.id = used.id
  CROSS JOIN gate CROSS JOIN async_commit`;

/** What the frame needs of a share whose ticket was just used. */
export interface FrameAdmission {
  watermarkEnabled: boolean;
  watermarkText: string | null;
  /** The e-mail of the account the ticket names for the watermark, if any, and only once it is proven. */
  email: string | null;
  /** The name on the visitor's acceptance of the share's current agreement, if any. */
  acceptedName: string | null;
}

/** One frame fetch's ticket, to be used on a share's version (see `useFrameTickets`). */
export interface FrameTicketUse {
  /** The ticket's random id, recorded once used. */
  id: string;
  /** Unix seconds. */
  expiresAt: number;
  /** The account the ticket names for the watermark, if any. */
  userId: string | null;
  /** The visit log's id of the visitor the ticket was minted for. */
  visitorId: string;
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
    const admissions = new Array<Admission>(visits.length);
    for (const row of rows)
      admissions[row.idx - 1] = { outcome: row.outcome, visitCount: row.visit_no, uniqueVisitCount: row.unique_no };
    if (admissions.includes(undefined as never)) throw new Error('admission answered a visit twice');
    return admissions;
  }

  /**
   * Uses the tickets of frame fetches of one share's version, in one statement: one result per
   * ticket, in order; null when the share no longer shows that version, or the ticket expired or
   * was used before (a ticket given twice is used by its first). See USE_FRAME_TICKETS_SQL.
   */
  async useFrameTickets(
    shareId: string,
    versionId: string,
    tickets: readonly FrameTicketUse[],
  ): Promise<Array<FrameAdmission | null>> {
    const rows = await this.hot<{
      idx: number;
      watermark_enabled: boolean;
      watermark_text: string | null;
      email: string | null;
      accepted_name: string | null;
    }>('viewer_use_frame_tickets', USE_FRAME_TICKETS_SQL, [
      shareId,
      versionId,
      tickets.map((t) => t.id),
      tickets.map((t) => t.expiresAt),
      tickets.map((t) => t.userId),
      tickets.map((t) => t.visitorId),
    ]);
    const admitted: Array<FrameAdmission | null> = tickets.map(() => null);
    for (const row of rows) {
      admitted[row.idx - 1] = {
        watermarkEnabled: row.watermark_enabled,
        watermarkText: row.watermark_text,
        email: row.email,
        acceptedName: row.accepted_name,
      };
    }
    return admitted;
  }

  /** Deletes the records of expired frame tickets (for the periodic sweep); returns how many went. */
  deleteExpiredFrameTickets(): Promise<number> {
    return deleteExpiredFrameTickets(this.db);
  }

  /** The share's password hash and its version, read together: an unlock names the version of the hash it proved. */
  async password(shareId: string): Promise<{ hash: string; version: number } | null> {
    const rows: Array<{ password_hash: string | null; password_version: number }> = await this.db.query(
      'SELECT password_hash, password_version FROM shares WHERE id = $1',
      [shareId],
    );
    const row = rows[0];
    return row?.password_hash ? { hash: row.password_hash, version: row.password_version } : null;
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
