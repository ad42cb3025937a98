import { randomBytes } from 'node:crypto';
import type { Columns, Row } from '../database/rows.js';
import type { ShareNotify } from './share-notify.js';
import type { ShareDto } from './share.dto.js';

/** 20 random bytes: 160 bits, 27 URL-safe characters. */
export function randomShareToken(): string {
  return randomBytes(20).toString('base64url');
}

/**
 * Path words the viewer uses under `/s/`. A slug equal to one of them would be unreachable
 * through the legacy `/s/<token>` form, so such slugs count as taken.
 */
export const RESERVED_SLUGS = new Set(['_assets', '_login', '_render', '_report', '_bounce']);

/** What a share shows: one file, or (a collection) the documents of a folder and its sub-folders. */
export type ShareTarget = { fileId: string } | { folderId: string };

export type FileKind = 'HTML' | 'MARKDOWN' | 'TEXT';

/**
 * The columns every share query selects (`s` = shares, `f` = files, `fo` = folders, `u` = owner),
 * from SHARE_JOINS: a share names a file or, a collection, a folder.
 */
export const SHARE_COLUMNS = `s.id, s.token, u.segment AS owner_segment, s.file_id, f.name AS file_name, f.kind AS file_kind,
  s.folder_id, fo.name AS folder_name,
  s.password_hash IS NOT NULL AS has_password, s.expires_at, s.max_visits, s.per_visitor_max_visits,
  s.per_login_user_max_visits, s.visit_count, s.unique_visit_count, s.one_time, s.require_login,
  s.watermark_enabled, s.watermark_text, s.copy_protection_enabled, s.burn_after_read_enabled,
  s.revoked_at, s.consumed_at, s.created_at, s.notify, s.disabled_at,
  s.agreement_text, s.agreement_require_name, s.agreement_sha256, cb.id AS created_by_id, cb.email AS created_by_email`;

/** What SHARE_COLUMNS reads from, after `FROM shares s` (or a CTE named `s`). */
export const SHARE_JOINS =
  'LEFT JOIN files f ON f.id = s.file_id LEFT JOIN folders fo ON fo.id = s.folder_id JOIN users u ON u.id = s.user_id ' +
  // The member who made it, in a shared workspace only (in a personal one the owner made every link).
  'LEFT JOIN users cb ON cb.id = s.created_by AND cb.id <> s.user_id';

/** SHARE_COLUMNS: the share's own columns, and the aliased or computed ones from SHARE_JOINS. */
export type ShareRow = Columns<
  'shares',
  | 'id'
  | 'token'
  | 'file_id'
  | 'folder_id'
  | 'expires_at'
  | 'max_visits'
  | 'per_visitor_max_visits'
  | 'per_login_user_max_visits'
  | 'visit_count'
  | 'unique_visit_count'
  | 'one_time'
  | 'require_login'
  | 'watermark_enabled'
  | 'watermark_text'
  | 'copy_protection_enabled'
  | 'burn_after_read_enabled'
  | 'revoked_at'
  | 'consumed_at'
  | 'created_at'
  | 'notify'
  | 'disabled_at'
  | 'agreement_text'
  | 'agreement_require_name'
  | 'agreement_sha256',
  { notify: ShareNotify }
> & {
  // file_id is null for a collection (then folder_id is set).
  /** u.segment AS owner_segment. */
  owner_segment: Row<'users'>['segment'];
  /** f.name AS file_name (left join: null for a collection). */
  file_name: Row<'files'>['name'] | null;
  /** f.kind AS file_kind (left join: null for a collection). */
  file_kind: FileKind | null;
  /** fo.name AS folder_name (left join: null for a file's share). */
  folder_name: Row<'folders'>['name'] | null;
  /** Computed: s.password_hash IS NOT NULL. */
  has_password: boolean;
  /** cb.id, cb.email: the member who made it, in a shared workspace only (left join). */
  created_by_id?: Row<'users'>['id'] | null;
  created_by_email?: Row<'users'>['email'] | null;
};

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

/** The contract's Share: exactly its fields, never the password or its hash. */
export function toShare(row: ShareRow): ShareDto {
  return {
    id: row.id,
    token: row.token,
    ownerSegment: row.owner_segment,
    // A share names its file, or (a collection) its folder: never both.
    ...(row.folder_id !== null
      ? { folderId: row.folder_id, folderName: row.folder_name! }
      : { fileId: row.file_id!, fileName: row.file_name!, fileKind: row.file_kind! }),
    hasPassword: row.has_password,
    expiresAt: iso(row.expires_at),
    maxVisits: row.max_visits,
    perVisitorMaxVisits: row.per_visitor_max_visits,
    perLoginUserMaxVisits: row.per_login_user_max_visits,
    visitCount: row.visit_count,
    uniqueVisitCount: row.unique_visit_count,
    oneTime: row.one_time,
    requireLogin: row.require_login,
    watermarkEnabled: row.watermark_enabled,
    watermarkText: row.watermark_text,
    copyProtectionEnabled: row.copy_protection_enabled,
    burnAfterReadEnabled: row.burn_after_read_enabled,
    revokedAt: iso(row.revoked_at),
    consumedAt: iso(row.consumed_at),
    createdAt: row.created_at.toISOString(),
    // Members beyond the spec's Share appear only when they say something, so a share that uses
    // none of them keeps exactly the contract's fields.
    ...(row.notify !== 'off' && { notify: row.notify }),
    ...(row.disabled_at && { disabledAt: row.disabled_at.toISOString() }),
    ...(row.agreement_text !== null && {
      agreement: { text: row.agreement_text, requireName: row.agreement_require_name, sha256: row.agreement_sha256! },
    }),
    ...(row.created_by_id && { createdBy: { userId: row.created_by_id, email: row.created_by_email ?? '' } }),
  };
}

export function viewPath(ownerSegment: string, token: string): string {
  return `/s/${encodeURIComponent(ownerSegment)}/${encodeURIComponent(token)}`;
}
