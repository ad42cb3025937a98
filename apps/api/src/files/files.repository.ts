import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isCursorUuid, type CursorKey, type PageRequest } from '../common/page-cursor.js';
import { affectedCount, returnedRows } from '../common/sql.js';
import type { Columns } from '../database/rows.js';
import { MAX_NAME_LENGTH, type FileKind } from './file-names.js';
import type { FileDto, ScanStatus } from './dto/file.dto.js';

/** A file with the state of its current version, as the services use it. */
export interface FileRecord {
  id: string;
  userId: string;
  name: string;
  kind: FileKind;
  folderId: string | null;
  currentVersionId: string;
  versionNo: number;
  sizeBytes: number;
  scanStatus: ScanStatus;
  scanResult: string | null;
  shareCount: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  /** The document request it came through, and its owner's review of it; null for the owner's own files. */
  fromRequest: { requestId: string; review: 'PENDING' | 'ACCEPTED' | 'REJECTED' } | null;
  /** The member who uploaded it in a shared workspace; null in a personal one, for a request's upload or a deleted account. */
  createdBy: { userId: string; email: string } | null;
}

export interface VersionRecord {
  id: string;
  fileId: string;
  versionNo: number;
  sizeBytes: number;
  sha256: string;
  scanStatus: ScanStatus;
  scanResult: string | null;
  scannedAt: Date | null;
  createdAt: Date;
}

export interface VersionWithContent extends VersionRecord {
  content: string;
}

/** FILE_COLUMNS: the file's own columns, its current version's, and three computed ones. */
type FileRow = Columns<
  'files',
  'id' | 'user_id' | 'name' | 'kind' | 'folder_id' | 'current_version_id' | 'created_at' | 'updated_at' | 'deleted_at',
  // FILE_FROM joins the current version: a file listed has one.
  { kind: FileKind; current_version_id: string }
> &
  Columns<'file_versions', 'version_no' | 'size_bytes' | 'scan_status' | 'scan_result', { scan_status: ScanStatus }> & {
    /** Computed: the file's active shares. */
    share_count: number;
    /** Computed (json_build_object) from request_uploads. */
    from_request?: FileRecord['fromRequest'];
    /** Computed (json_build_object) from the uploader's users row; not the files.created_by uuid. */
    created_by?: FileRecord['createdBy'];
  };

/** VERSION_COLUMNS, and the content where a query reads it too. */
type VersionRow = Columns<
  'file_versions',
  'id' | 'file_id' | 'version_no' | 'size_bytes' | 'sha256' | 'scan_status' | 'scan_result' | 'scanned_at' | 'created_at',
  { scan_status: ScanStatus }
> &
  Partial<Columns<'file_versions', 'content'>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from paths and forms; anything not shaped like a uuid cannot name a row. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Where a page of files ends: the order keys of its last file. */
export interface FileOrderKey {
  name: string;
  id: string;
}

export const FILES_CURSOR: CursorKey<FileOrderKey> = {
  list: 'files',
  encode: (key) => [key.name, key.id],
  parse: ([name, id, ...rest]) =>
    rest.length === 0 && name !== undefined && name.length <= MAX_NAME_LENGTH && isCursorUuid(id) ? { name, id } : null,
};

// Active shares: the ones a visitor could still open.
const FILE_COLUMNS = `
  f.id, f.user_id, f.name, f.kind, f.folder_id, f.current_version_id, f.created_at, f.updated_at, f.deleted_at,
  v.version_no, v.size_bytes, v.scan_status, v.scan_result,
  (SELECT count(*)::int FROM shares s
    WHERE s.file_id = f.id AND s.revoked_at IS NULL AND s.consumed_at IS NULL
      AND (s.expires_at IS NULL OR s.expires_at > now())) AS share_count,
  (SELECT json_build_object('requestId', ru.request_id, 'review', ru.review) FROM request_uploads ru WHERE ru.file_id = f.id)
    AS from_request,
  (SELECT json_build_object('userId', c.id, 'email', c.email) FROM users c WHERE c.id = f.created_by AND c.id <> f.user_id)
    AS created_by`;

const FILE_FROM = `files f JOIN file_versions v ON v.id = f.current_version_id`;

const VERSION_COLUMNS = `v.id, v.file_id, v.version_no, v.size_bytes, v.sha256, v.scan_status, v.scan_result, v.scanned_at, v.created_at`;

function toFileRecord(row: FileRow): FileRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    kind: row.kind,
    folderId: row.folder_id,
    currentVersionId: row.current_version_id,
    versionNo: row.version_no,
    sizeBytes: Number(row.size_bytes),
    scanStatus: row.scan_status,
    scanResult: row.scan_result,
    shareCount: row.share_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    fromRequest: row.from_request ?? null,
    createdBy: row.created_by ?? null,
  };
}

export function toFileDto(file: FileRecord): FileDto {
  return {
    id: file.id,
    name: file.name,
    kind: file.kind,
    sizeBytes: file.sizeBytes,
    createdAt: file.createdAt.toISOString(),
    folderId: file.folderId,
    shareCount: file.shareCount,
    scanStatus: file.scanStatus,
    scanResult: file.scanResult,
    // Said only in a shared workspace, where it tells members apart: a personal file keeps the contract's fields.
    ...(file.createdBy && { createdBy: file.createdBy }),
  };
}

function toVersionRecord(row: VersionRow): VersionRecord {
  return {
    id: row.id,
    fileId: row.file_id,
    versionNo: row.version_no,
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256,
    scanStatus: row.scan_status,
    scanResult: row.scan_result,
    scannedAt: row.scanned_at,
    createdAt: row.created_at,
  };
}

/** SQL for files and their versions. Every query is scoped to its owner. */
@Injectable()
export class FilesRepository {
  constructor(private readonly db: DataSource) {}

  async findLive(userId: string, fileId: string, manager: EntityManager = this.db.manager): Promise<FileRecord | null> {
    if (!isUuid(fileId)) return null;
    const rows: FileRow[] = await manager.query(
      `SELECT ${FILE_COLUMNS} FROM ${FILE_FROM} WHERE f.id = $1 AND f.user_id = $2 AND f.deleted_at IS NULL`,
      [fileId, userId],
    );
    return rows[0] ? toFileRecord(rows[0]) : null;
  }

  async findAny(userId: string, fileId: string, manager: EntityManager = this.db.manager): Promise<FileRecord | null> {
    if (!isUuid(fileId)) return null;
    const rows: FileRow[] = await manager.query(`SELECT ${FILE_COLUMNS} FROM ${FILE_FROM} WHERE f.id = $1 AND f.user_id = $2`, [
      fileId,
      userId,
    ]);
    return rows[0] ? toFileRecord(rows[0]) : null;
  }

  /** The live file holding `name` in a folder (null = root), if any. */
  async findLiveByName(
    userId: string,
    folderId: string | null,
    name: string,
    manager: EntityManager = this.db.manager,
  ): Promise<FileRecord | null> {
    const rows: FileRow[] = await manager.query(
      `SELECT ${FILE_COLUMNS} FROM ${FILE_FROM}
       WHERE f.user_id = $1 AND f.folder_id IS NOT DISTINCT FROM $2 AND f.name = $3 AND f.deleted_at IS NULL`,
      [userId, folderId, name],
    );
    return rows[0] ? toFileRecord(rows[0]) : null;
  }

  /** Live files of a user; in one folder when `folderId` is given (null = root), else all. */
  async listLive(userId: string, folderId?: string | null): Promise<FileRecord[]> {
    const params: unknown[] = [userId];
    let where = 'f.user_id = $1 AND f.deleted_at IS NULL';
    if (folderId !== undefined) {
      params.push(folderId);
      where += ' AND f.folder_id IS NOT DISTINCT FROM $2';
    }
    const rows: FileRow[] = await this.db.query(
      `SELECT ${FILE_COLUMNS} FROM ${FILE_FROM} WHERE ${where} ORDER BY f.name, f.id`,
      params,
    );
    return rows.map(toFileRecord);
  }

  /**
   * One page of `listLive`, in the same order (name, then id). Fetches one row more than the
   * page so the caller knows whether another page follows. The partial indexes
   * files_live_order_idx and files_live_folder_order_idx serve it as a range scan.
   */
  async listLivePage(userId: string, folderId: string | undefined, page: PageRequest<FileOrderKey>): Promise<FileRecord[]> {
    const params: unknown[] = [userId];
    let where = 'f.user_id = $1 AND f.deleted_at IS NULL';
    if (folderId !== undefined) {
      params.push(folderId);
      where += ` AND f.folder_id = $${params.length}`;
    }
    if (page.after) {
      params.push(page.after.name, page.after.id);
      where += ` AND (f.name, f.id) > ($${params.length - 1}, $${params.length}::uuid)`;
    }
    params.push(page.limit + 1);
    const rows: FileRow[] = await this.db.query(
      `SELECT ${FILE_COLUMNS} FROM ${FILE_FROM} WHERE ${where} ORDER BY f.name, f.id LIMIT $${params.length}`,
      params,
    );
    return rows.map(toFileRecord);
  }

  /**
   * One page of the user's live files by name: in one folder when `folderId` is given (null =
   * root), whose names match an ILIKE pattern when `namePattern` is; with the count of all matches.
   */
  async pageLive(
    userId: string,
    filter: { folderId?: string | null; namePattern?: string; limit: number; offset: number },
  ): Promise<{ files: FileRecord[]; total: number }> {
    const params: unknown[] = [userId];
    let where = 'f.user_id = $1 AND f.deleted_at IS NULL';
    if (filter.folderId === null) {
      where += ' AND f.folder_id IS NULL';
    } else if (filter.folderId !== undefined) {
      params.push(filter.folderId);
      where += ` AND f.folder_id = $${params.length}`;
    }
    if (filter.namePattern !== undefined) {
      params.push(filter.namePattern);
      where += ` AND f.name ILIKE $${params.length}`;
    }
    const [{ total }]: Array<{ total: number }> = await this.db.query(
      `SELECT count(*)::int AS total FROM files f WHERE ${where}`,
      params,
    );
    const rows: FileRow[] = await this.db.query(
      `SELECT ${FILE_COLUMNS} FROM ${FILE_FROM} WHERE ${where} ORDER BY f.name, f.id LIMIT ${filter.limit} OFFSET ${filter.offset}`,
      params,
    );
    return { files: rows.map(toFileRecord), total };
  }

  /** Files deleted directly (not with their folder), newest first. */
  async listTrashed(userId: string): Promise<FileRecord[]> {
    const rows: FileRow[] = await this.db.query(
      `SELECT ${FILE_COLUMNS} FROM ${FILE_FROM} LEFT JOIN folders p ON p.id = f.folder_id
       WHERE f.user_id = $1 AND f.deleted_at IS NOT NULL AND (p.id IS NULL OR p.deleted_at IS DISTINCT FROM f.deleted_at)
       ORDER BY f.deleted_at DESC, f.name`,
      [userId],
    );
    return rows.map(toFileRecord);
  }

  /** Brings a trashed file back into `folderId` (null = the top level) under `name`. */
  async restore(fileId: string, folderId: string | null, name: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE files SET deleted_at = NULL, updated_at = now(), folder_id = $2, name = $3 WHERE id = $1`, [
      fileId,
      folderId,
      name,
    ]);
  }

  /**
   * Deletes files of the user with their versions (shares go with their file, ON DELETE CASCADE).
   * Answers how many files went and the bytes of the versions this call deleted: a file someone
   * else purged meanwhile counts nothing twice.
   */
  async deleteWithVersions(
    userId: string,
    fileIds: string[],
    manager: EntityManager,
  ): Promise<{ deletedFiles: number; freedBytes: number }> {
    const versions = returnedRows<{ size_bytes: string }>(
      await manager.query(
        `DELETE FROM file_versions v USING files f
         WHERE v.file_id = f.id AND f.id = ANY($1::uuid[]) AND f.user_id = $2 RETURNING v.size_bytes`,
        [fileIds, userId],
      ),
    );
    const deleted = returnedRows<{ id: string }>(
      await manager.query(`DELETE FROM files WHERE id = ANY($1::uuid[]) AND user_id = $2 RETURNING id`, [fileIds, userId]),
    );
    return { deletedFiles: deleted.length, freedBytes: versions.reduce((sum, version) => sum + Number(version.size_bytes), 0) };
  }

  async namesInFolder(userId: string, folderId: string | null, manager: EntityManager): Promise<Set<string>> {
    const rows: Array<{ name: string }> = await manager.query(
      `SELECT name FROM files WHERE user_id = $1 AND folder_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL`,
      [userId, folderId],
    );
    return new Set(rows.map((row) => row.name));
  }

  async isLiveFolder(userId: string, folderId: string, manager: EntityManager = this.db.manager, lock = false): Promise<boolean> {
    if (!isUuid(folderId)) return false;
    // FOR SHARE keeps the folder from being moved to the trash while a file lands in it.
    const rows = await manager.query(
      `SELECT 1 FROM folders WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL${lock ? ' FOR SHARE' : ''}`,
      [folderId, userId],
    );
    return rows.length > 0;
  }

  /**
   * Row-locks the owner until the transaction ends. Every transaction that changes an owner's
   * folder tree, files or quota takes this lock first, then folders, then files: one order
   * everywhere, so they take turns instead of deadlocking, and each one sees what the one
   * before it committed. NO KEY UPDATE conflicts with itself and with FOR UPDATE, but not with
   * the key-share locks of foreign-key checks, so rows that merely reference the user (a share
   * created while its file is trashed, a session) never wait for it.
   */
  async lockOwner(userId: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE`, [userId]);
  }

  /** Adds `bytes` to the user's usage unless that passes the quota. */
  async reserveQuota(userId: string, bytes: number, manager: EntityManager): Promise<boolean> {
    const rows = returnedRows<{ used_bytes: string }>(
      await manager.query(
        `UPDATE users SET used_bytes = used_bytes + $2 WHERE id = $1 AND used_bytes + $2 <= quota_bytes RETURNING used_bytes`,
        [userId, bytes],
      ),
    );
    return rows.length > 0;
  }

  async releaseQuota(userId: string, bytes: number, manager: EntityManager): Promise<void> {
    if (bytes <= 0) return;
    await manager.query(`UPDATE users SET used_bytes = greatest(used_bytes - $2, 0) WHERE id = $1`, [userId, bytes]);
  }

  /** Row-locks a live file of the user (FOR UPDATE): version numbering and quarantine checks of it take turns. */
  async lockLive(userId: string, fileId: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT 1 FROM files WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, [fileId, userId]);
  }

  /** Row-locks a file (FOR UPDATE) before a version is added to it. */
  async lock(fileId: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT 1 FROM files WHERE id = $1 FOR UPDATE`, [fileId]);
  }

  async setCurrentVersion(fileId: string, versionId: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE files SET current_version_id = $2, updated_at = now() WHERE id = $1`, [fileId, versionId]);
  }

  async insertFile(
    manager: EntityManager,
    file: {
      fileId: string;
      versionId: string;
      userId: string;
      folderId: string | null;
      name: string;
      kind: FileKind;
      createdBy: string | null;
    },
  ): Promise<void> {
    // current_version_id is checked at commit (deferred), once the version row exists.
    await manager.query(
      `INSERT INTO files (id, user_id, folder_id, name, kind, current_version_id, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [file.fileId, file.userId, file.folderId, file.name, file.kind, file.versionId, file.createdBy],
    );
  }

  /** Moves a live file to the trash; false when the user has no such live file. */
  async moveToTrash(userId: string, fileId: string, manager: EntityManager): Promise<boolean> {
    const moved = await manager.query(
      `UPDATE files SET deleted_at = now(), updated_at = now() WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING id`,
      [fileId, userId],
    );
    return returnedRows(moved).length > 0;
  }

  /** Revokes every live share of these files: a trashed file is shared no more. */
  async revokeShares(fileIds: string[], manager: EntityManager): Promise<number> {
    return affectedCount(
      await manager.query(`UPDATE shares SET revoked_at = now() WHERE file_id = ANY($1::uuid[]) AND revoked_at IS NULL`, [
        fileIds,
      ]),
    );
  }

  /** Renames and moves a file (the caller checked the name and the folder under the owner's lock). */
  async rename(fileId: string, name: string, folderId: string | null, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE files SET name = $2, folder_id = $3, updated_at = now() WHERE id = $1`, [fileId, name, folderId]);
  }

  async insertVersion(
    manager: EntityManager,
    version: { id: string; fileId: string; content: string; sizeBytes: number; sha256: string },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO file_versions (id, file_id, version_no, content, size_bytes, sha256)
       VALUES ($1, $2, (SELECT coalesce(max(version_no), 0) + 1 FROM file_versions WHERE file_id = $2), $3, $4, $5)`,
      [version.id, version.fileId, version.content, version.sizeBytes, version.sha256],
    );
  }

  async listVersions(fileId: string, manager: EntityManager = this.db.manager): Promise<VersionRecord[]> {
    const rows: VersionRow[] = await manager.query(
      `SELECT ${VERSION_COLUMNS} FROM file_versions v WHERE v.file_id = $1 ORDER BY v.version_no DESC`,
      [fileId],
    );
    return rows.map(toVersionRecord);
  }

  async findVersion(
    fileId: string,
    versionId: string,
    manager: EntityManager = this.db.manager,
  ): Promise<VersionWithContent | null> {
    if (!isUuid(versionId)) return null;
    const rows: Array<VersionRow & { content: string }> = await manager.query(
      `SELECT ${VERSION_COLUMNS}, v.content FROM file_versions v WHERE v.id = $1 AND v.file_id = $2`,
      [versionId, fileId],
    );
    const row = rows[0];
    return row ? { ...toVersionRecord(row), content: row.content } : null;
  }
}
