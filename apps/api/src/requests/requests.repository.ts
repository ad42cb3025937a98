import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { rows as queryRows } from '../common/sql.js';
import { cursorTimeSql, newestFirstCursor, type NewestFirstKey, type PageRequest } from '../common/page-cursor.js';
import type { Columns, Row } from '../database/rows.js';
import type { ShareNotify } from '../shares/share-notify.js';
import type { RequestState, UploadReview } from './request.dto.js';

export const REQUESTS_CURSOR = newestFirstCursor('requests');
export const UPLOADS_CURSOR = newestFirstCursor('request-uploads');

/** A request's state, judged by the database's clock: closed, then expired, then full, else open. */
const STATE_SQL = `CASE WHEN r.closed_at IS NOT NULL THEN 'CLOSED'
  WHEN r.expires_at IS NOT NULL AND r.expires_at <= now() THEN 'EXPIRED'
  WHEN r.upload_count >= r.max_uploads THEN 'FULL' ELSE 'OPEN' END`;

const REQUEST_COLUMNS = `r.id, r.user_id, r.token, r.title, r.instructions, r.folder_id, r.max_uploads, r.max_bytes, r.expires_at,
  r.password_hash IS NOT NULL AS has_password, r.email_allowlist, r.notify, r.upload_count, r.created_at, r.closed_at,
  ${STATE_SQL} AS state, ${cursorTimeSql('r.created_at')} AS cursor_time`;

export interface RequestRecord {
  id: string;
  ownerId: string;
  token: string;
  title: string;
  instructions: string;
  folderId: string;
  maxUploads: number;
  maxBytes: number;
  expiresAt: Date | null;
  hasPassword: boolean;
  emailAllowlist: string[] | null;
  notify: ShareNotify;
  uploadCount: number;
  createdAt: Date;
  closedAt: Date | null;
  state: RequestState;
  cursorTime: string;
}

/** REQUEST_COLUMNS: the request's own columns, and computed ones. */
type RequestRow = Columns<
  'document_requests',
  | 'id'
  | 'user_id'
  | 'token'
  | 'title'
  | 'instructions'
  | 'folder_id'
  | 'max_uploads'
  | 'max_bytes'
  | 'expires_at'
  | 'email_allowlist'
  | 'notify'
  | 'upload_count'
  | 'created_at'
  | 'closed_at',
  { notify: ShareNotify }
> & {
  /** Computed: r.password_hash IS NOT NULL. */
  has_password: boolean;
  /** Computed: STATE_SQL. */
  state: RequestState;
  /** Computed: cursorTimeSql('r.created_at'). */
  cursor_time: string;
};

function toRecord(row: RequestRow): RequestRecord {
  return {
    id: row.id,
    ownerId: row.user_id,
    token: row.token,
    title: row.title,
    instructions: row.instructions,
    folderId: row.folder_id,
    maxUploads: row.max_uploads,
    maxBytes: row.max_bytes,
    expiresAt: row.expires_at,
    hasPassword: row.has_password,
    emailAllowlist: row.email_allowlist,
    notify: row.notify,
    uploadCount: row.upload_count,
    createdAt: row.created_at,
    closedAt: row.closed_at,
    state: row.state,
    cursorTime: row.cursor_time,
  };
}

/** What the public page needs: the request, its owner's segment and name to show, and whether its folder is live. */
export interface PublicRequest extends RequestRecord {
  /** A short digest of the password hash in force: a browser's unlock names it, so a new password asks again. */
  passwordTag: string;
  ownerSegment: string;
  ownerEmail: string;
  ownerDisabled: boolean;
  folderLive: boolean;
}

export interface UploadRecord {
  id: string;
  requestId: string;
  fileId: string | null;
  fileName: string;
  sizeBytes: number;
  scanStatus: string | null;
  review: UploadReview;
  uploaderName: string;
  uploaderEmail: string | null;
  message: string;
  createdAt: Date;
  cursorTime: string;
}

/** UPLOAD_COLUMNS: the upload's own columns, its file's scan status, and a computed one. */
type UploadRow = Columns<
  'request_uploads',
  | 'id'
  | 'request_id'
  | 'file_id'
  | 'file_name'
  | 'size_bytes'
  | 'review'
  | 'uploader_name'
  | 'uploader_email'
  | 'message'
  | 'created_at',
  { review: UploadReview }
> & {
  /** v.scan_status of the file's current version (left joins: null once the file is gone). */
  scan_status: Row<'file_versions'>['scan_status'] | null;
  /** Computed: cursorTimeSql('u.created_at'). */
  cursor_time: string;
};

const UPLOAD_COLUMNS = `u.id, u.request_id, u.file_id, u.file_name, u.size_bytes, v.scan_status, u.review, u.uploader_name,
  u.uploader_email, u.message, u.created_at, ${cursorTimeSql('u.created_at')} AS cursor_time`;
const UPLOAD_FROM = `request_uploads u
  LEFT JOIN files f ON f.id = u.file_id
  LEFT JOIN file_versions v ON v.id = f.current_version_id`;

function toUpload(row: UploadRow): UploadRecord {
  return {
    id: row.id,
    requestId: row.request_id,
    fileId: row.file_id,
    fileName: row.file_name,
    sizeBytes: row.size_bytes,
    scanStatus: row.scan_status,
    review: row.review,
    uploaderName: row.uploader_name,
    uploaderEmail: row.uploader_email,
    message: row.message,
    createdAt: row.created_at,
    cursorTime: row.cursor_time,
  };
}

export interface NewRequest {
  ownerId: string;
  token: string;
  title: string;
  instructions: string;
  folderId: string;
  maxUploads: number;
  maxBytes: number;
  expiresInDays: number | null;
  passwordHash: string | null;
  emailAllowlist: string[] | null;
  notify: ShareNotify;
}

/** Changes to a request: a field left undefined stays as it is. */
export interface RequestChanges {
  title?: string;
  instructions?: string;
  maxUploads?: number;
  maxBytes?: number;
  expiresInDays?: number | null;
  passwordHash?: string | null;
  emailAllowlist?: string[] | null;
  notify?: ShareNotify;
}

/** One upload whose scan just settled, with what its owner hears of it. */
export interface SettledUpload {
  uploadId: string;
  requestId: string;
  requestTitle: string;
  ownerId: string;
  notify: ShareNotify;
  /** Uploads of the request settled before this one (0 for the first). */
  settledBefore: number;
  fileId: string;
  fileName: string;
  sizeBytes: number;
  uploaderName: string;
  scanStatus: 'CLEAN' | 'INFECTED';
}

/** A document request's rows: the request, its slots, and its uploads. Every owner-side query is scoped to the owner. */
@Injectable()
export class RequestsRepository {
  constructor(private readonly db: DataSource) {}

  async insert(manager: EntityManager, request: NewRequest): Promise<RequestRecord> {
    const rows: RequestRow[] = await manager.query(
      `WITH r AS (
         INSERT INTO document_requests (user_id, token, title, instructions, folder_id, max_uploads, max_bytes, expires_at,
                                        password_hash, email_allowlist, notify)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::integer IS NULL THEN NULL ELSE now() + make_interval(days => $8::integer) END,
                 $9, $10, $11)
         RETURNING *)
       SELECT ${REQUEST_COLUMNS} FROM r`,
      [
        request.ownerId,
        request.token,
        request.title,
        request.instructions,
        request.folderId,
        request.maxUploads,
        request.maxBytes,
        request.expiresInDays,
        request.passwordHash,
        request.emailAllowlist,
        request.notify,
      ],
    );
    return toRecord(rows[0]!);
  }

  async findOwned(ownerId: string, id: string, manager: EntityManager = this.db.manager): Promise<RequestRecord | null> {
    const rows: RequestRow[] = await manager.query(
      `SELECT ${REQUEST_COLUMNS} FROM document_requests r WHERE r.id = $1 AND r.user_id = $2`,
      [id, ownerId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** One page, newest first; `limit + 1` rows tell whether another follows. */
  async page(ownerId: string, state: RequestState | null, page: PageRequest<NewestFirstKey>): Promise<RequestRecord[]> {
    const rows: RequestRow[] = await this.db.query(
      `SELECT * FROM (SELECT ${REQUEST_COLUMNS} FROM document_requests r WHERE r.user_id = $1) r
        WHERE ($2::text IS NULL OR r.state = $2)
          AND ($3::timestamptz IS NULL OR (r.created_at, r.id) < ($3::timestamptz, $4::uuid))
        ORDER BY r.created_at DESC, r.id DESC LIMIT $5`,
      [ownerId, state, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
    );
    return rows.map(toRecord);
  }

  async update(ownerId: string, id: string, changes: RequestChanges, manager: EntityManager): Promise<RequestRecord | null> {
    const rows: RequestRow[] = await manager.query(
      `WITH r AS (
         UPDATE document_requests SET
           title = coalesce($3, title),
           instructions = coalesce($4, instructions),
           max_uploads = coalesce($5, max_uploads),
           max_bytes = coalesce($6, max_bytes),
           expires_at = CASE WHEN NOT $7::boolean THEN expires_at WHEN $8::integer IS NULL THEN NULL
                             ELSE now() + make_interval(days => $8::integer) END,
           password_hash = CASE WHEN $9::boolean THEN $10 ELSE password_hash END,
           email_allowlist = CASE WHEN $11::boolean THEN $12::text[] ELSE email_allowlist END,
           notify = coalesce($13, notify)
         WHERE id = $1 AND user_id = $2
         RETURNING *)
       SELECT ${REQUEST_COLUMNS} FROM r`,
      [
        id,
        ownerId,
        changes.title ?? null,
        changes.instructions ?? null,
        changes.maxUploads ?? null,
        changes.maxBytes ?? null,
        changes.expiresInDays !== undefined,
        changes.expiresInDays ?? null,
        changes.passwordHash !== undefined,
        changes.passwordHash ?? null,
        changes.emailAllowlist !== undefined,
        changes.emailAllowlist ?? null,
        changes.notify ?? null,
      ],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Closes the request (idempotent: the first closedAt stays). */
  async close(ownerId: string, id: string, manager: EntityManager): Promise<RequestRecord | null> {
    const rows: RequestRow[] = await manager.query(
      `WITH r AS (
         UPDATE document_requests SET closed_at = coalesce(closed_at, now()) WHERE id = $1 AND user_id = $2 RETURNING *)
       SELECT ${REQUEST_COLUMNS} FROM r`,
      [id, ownerId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The request behind a public link, with its owner's segment (case-insensitive) and whether its folder is live. */
  async findPublic(segment: string, token: string): Promise<PublicRequest | null> {
    const rows: Array<
      RequestRow & { segment: string; email: string; owner_disabled: boolean; folder_live: boolean; password_tag: string }
    > = await this.db.query(
      `SELECT ${REQUEST_COLUMNS}, o.segment, o.email, o.disabled_at IS NOT NULL AS owner_disabled,
                left(md5(coalesce(r.password_hash, '')), 12) AS password_tag,
                fo.deleted_at IS NULL AS folder_live
           FROM document_requests r
           JOIN users o ON o.id = r.user_id
           JOIN folders fo ON fo.id = r.folder_id
          WHERE r.token = $1 AND lower(o.segment) = lower($2)`,
      [token, segment],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      ...toRecord(row),
      passwordTag: row.password_tag,
      ownerSegment: row.segment,
      ownerEmail: row.email,
      ownerDisabled: row.owner_disabled,
      folderLive: row.folder_live,
    };
  }

  async passwordHash(id: string): Promise<string | null> {
    const rows: Array<{ password_hash: string | null }> = await this.db.query(
      'SELECT password_hash FROM document_requests WHERE id = $1',
      [id],
    );
    return rows[0]?.password_hash ?? null;
  }

  /**
   * Takes one slot of an open request under its row lock, in the upload's transaction: false when
   * it is closed, expired or full by now. Parallel uploads queue on the lock, and each sees the
   * count the one before committed (or rolled back).
   */
  async reserveSlot(manager: EntityManager, id: string): Promise<boolean> {
    const taken = await queryRows<{ id: string }>(
      manager,
      `UPDATE document_requests SET upload_count = upload_count + 1
        WHERE id = $1 AND closed_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AND upload_count < max_uploads
        RETURNING id`,
      [id],
    );
    return taken.length === 1;
  }

  async insertUpload(
    manager: EntityManager,
    upload: {
      requestId: string;
      fileId: string;
      fileName: string;
      sizeBytes: number;
      uploaderName: string;
      uploaderEmail: string | null;
      message: string;
      receiptHash: string;
      ipPrefix: string;
    },
  ): Promise<string> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO request_uploads (request_id, file_id, file_name, size_bytes, uploader_name, uploader_email, message, receipt_hash, ip_prefix)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        upload.requestId,
        upload.fileId,
        upload.fileName,
        upload.sizeBytes,
        upload.uploaderName,
        upload.uploaderEmail,
        upload.message,
        upload.receiptHash,
        upload.ipPrefix,
      ],
    );
    return rows[0]!.id;
  }

  /** One page of a request's uploads, newest first. */
  async uploads(requestId: string, page: PageRequest<NewestFirstKey>): Promise<UploadRecord[]> {
    const rows: UploadRow[] = await this.db.query(
      `SELECT ${UPLOAD_COLUMNS} FROM ${UPLOAD_FROM}
        WHERE u.request_id = $1 AND ($2::timestamptz IS NULL OR (u.created_at, u.id) < ($2::timestamptz, $3::uuid))
        ORDER BY u.created_at DESC, u.id DESC LIMIT $4`,
      [requestId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
    );
    return rows.map(toUpload);
  }

  /** An upload of the owner's request, locked for its review when a transaction is given. */
  async findUpload(ownerId: string, requestId: string, uploadId: string, manager?: EntityManager): Promise<UploadRecord | null> {
    const lock = manager ? 'FOR UPDATE OF u' : '';
    const rows: UploadRow[] = await (manager ?? this.db.manager).query(
      `SELECT ${UPLOAD_COLUMNS} FROM ${UPLOAD_FROM} JOIN document_requests r ON r.id = u.request_id
        WHERE u.id = $1 AND u.request_id = $2 AND r.user_id = $3 ${lock}`,
      [uploadId, requestId, ownerId],
    );
    return rows[0] ? toUpload(rows[0]) : null;
  }

  async setReview(manager: EntityManager, uploadId: string, review: UploadReview): Promise<void> {
    await manager.query('UPDATE request_uploads SET review = $2 WHERE id = $1', [uploadId, review]);
  }

  /** The upload a receipt's secret names, with its request's title; null for any other secret. */
  async receipt(receiptHash: string): Promise<(UploadRecord & { requestTitle: string }) | null> {
    const rows: Array<UploadRow & { title: string }> = await this.db.query(
      `SELECT ${UPLOAD_COLUMNS}, r.title FROM ${UPLOAD_FROM} JOIN document_requests r ON r.id = u.request_id
        WHERE u.receipt_hash = $1`,
      [receiptHash],
    );
    const row = rows[0];
    return row ? { ...toUpload(row), requestTitle: row.title } : null;
  }

  /**
   * Marks the upload of a version whose scan settled (CLEAN or INFECTED) as settled, once: of
   * two workers settling it, one gets the row. Null when the version is no request upload's, or
   * its settling was seen before.
   */
  async settle(versionId: string): Promise<SettledUpload | null> {
    const rows: Array<
      Columns<
        'request_uploads',
        'id' | 'request_id' | 'file_id' | 'file_name' | 'size_bytes' | 'uploader_name',
        // Joined to the version by file_id.
        { file_id: string }
      > &
        Columns<'document_requests', 'title' | 'user_id' | 'notify', { notify: ShareNotify }> &
        Columns<'file_versions', 'scan_status', { scan_status: 'CLEAN' | 'INFECTED' }> & {
          /** Computed: the request's uploads settled before this one. */
          settled_before: number;
        }
    > = await this.db.query(
      `WITH settled AS (
         UPDATE request_uploads u SET settled_at = now()
           FROM file_versions v
          WHERE v.id = $1 AND u.file_id = v.file_id AND u.settled_at IS NULL AND v.scan_status IN ('CLEAN', 'INFECTED')
          RETURNING u.*, v.scan_status)
       SELECT s.id, s.request_id, r.title, r.user_id, r.notify, s.file_id, s.file_name, s.size_bytes, s.uploader_name, s.scan_status,
              (SELECT count(*)::int FROM request_uploads o WHERE o.request_id = s.request_id AND o.settled_at IS NOT NULL
                  AND o.id <> s.id) AS settled_before
         FROM settled s JOIN document_requests r ON r.id = s.request_id`,
      [versionId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      uploadId: row.id,
      requestId: row.request_id,
      requestTitle: row.title,
      ownerId: row.user_id,
      notify: row.notify,
      settledBefore: row.settled_before,
      fileId: row.file_id,
      fileName: row.file_name,
      sizeBytes: row.size_bytes,
      uploaderName: row.uploader_name,
      scanStatus: row.scan_status,
    };
  }

  /** The id of the owner's live folder of that name under `parentId` (null: the root), if any. */
  async liveFolderNamed(manager: EntityManager, ownerId: string, parentId: string | null, name: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id FROM folders WHERE user_id = $1 AND parent_id IS NOT DISTINCT FROM $2::uuid AND name = $3 AND deleted_at IS NULL`,
      [ownerId, parentId, name],
    );
    return rows[0]?.id ?? null;
  }

  /** Files uploaded through a request, of these ids: the file browser marks them. */
  async fromRequests(fileIds: readonly string[]): Promise<Map<string, { requestId: string; review: UploadReview }>> {
    if (fileIds.length === 0) return new Map();
    // file_id = ANY(...): not null.
    const rows: Array<
      Columns<'request_uploads', 'file_id' | 'request_id' | 'review', { file_id: string; review: UploadReview }>
    > = await this.db.query('SELECT file_id, request_id, review FROM request_uploads WHERE file_id = ANY($1::uuid[])', [fileIds]);
    return new Map(rows.map((row) => [row.file_id, { requestId: row.request_id, review: row.review }]));
  }
}
