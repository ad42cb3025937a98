import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface ExportFolder {
  id: string;
  parentId: string | null;
  name: string;
  trashed: boolean;
}

export interface ExportVersion {
  id: string;
  versionNo: number;
  sizeBytes: number;
  sha256: string;
  scanStatus: string;
  createdAt: Date;
}

/** A shared workspace as its export describes it: its name, segment and members. */
export interface ExportWorkspace {
  id: string;
  name: string;
  segment: string;
  members: Array<{ userId: string; email: string; role: string; joinedAt: string }>;
}

export interface ExportFile {
  id: string;
  /** The member who made it (NULL once they are deleted). */
  createdBy: { userId: string; email: string } | null;
  folderId: string | null;
  name: string;
  kind: string;
  currentVersionId: string | null;
  trashed: boolean;
  createdAt: Date;
  versions: ExportVersion[];
}

/** What a workspace's export reads: its folders, files and versions, content one version at a time, and its members. */
@Injectable()
export class ExportRepository {
  constructor(private readonly db: DataSource) {}

  async folders(userId: string): Promise<ExportFolder[]> {
    return this.db.query(
      `SELECT id, parent_id AS "parentId", name, deleted_at IS NOT NULL AS trashed FROM folders WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
  }

  /** The shared workspace `ownerId` is, with its members; null for an account (a personal workspace). */
  async workspace(ownerId: string): Promise<ExportWorkspace | null> {
    const rows: ExportWorkspace[] = await this.db.query(
      `SELECT w.id, w.name, w.segment,
              coalesce((SELECT json_agg(json_build_object('userId', u.id, 'email', u.email, 'role', m.role,
                                                          'joinedAt', m.joined_at) ORDER BY m.joined_at, u.id)
                          FROM workspace_members m JOIN users u ON u.id = m.user_id
                         WHERE m.workspace_id = w.id), '[]') AS members
         FROM users w WHERE w.id = $1 AND w.kind = 'workspace'`,
      [ownerId],
    );
    return rows[0] ?? null;
  }

  /** Every file not yet purged, with its versions' metadata (not their content). */
  async files(userId: string): Promise<ExportFile[]> {
    const rows: (Omit<ExportFile, 'versions'> & { versions: (Omit<ExportVersion, 'createdAt'> & { createdAt: string })[] })[] =
      await this.db.query(
        `SELECT f.id, f.folder_id AS "folderId", f.name, f.kind, f.current_version_id AS "currentVersionId",
                f.deleted_at IS NOT NULL AS trashed, f.created_at AS "createdAt",
                (SELECT json_build_object('userId', c.id, 'email', c.email) FROM users c WHERE c.id = f.created_by) AS "createdBy",
                coalesce(json_agg(json_build_object('id', v.id, 'versionNo', v.version_no, 'sizeBytes', v.size_bytes,
                  'sha256', v.sha256, 'scanStatus', v.scan_status, 'createdAt', v.created_at) ORDER BY v.version_no)
                  FILTER (WHERE v.id IS NOT NULL), '[]') AS versions
         FROM files f LEFT JOIN file_versions v ON v.file_id = f.id
         WHERE f.user_id = $1 GROUP BY f.id ORDER BY f.created_at, f.id`,
        [userId],
      );
    return rows.map((row) => ({
      ...row,
      versions: row.versions.map((version) => ({
        ...version,
        sizeBytes: Number(version.sizeBytes),
        createdAt: new Date(version.createdAt),
      })),
    }));
  }

  /** One version's text, if it is still the account's and was found clean (quarantined content is never handed out). */
  async cleanContent(userId: string, versionId: string): Promise<string | null> {
    const rows: { content: string }[] = await this.db.query(
      `SELECT v.content FROM file_versions v JOIN files f ON f.id = v.file_id
       WHERE v.id = $1 AND f.user_id = $2 AND v.scan_status = 'CLEAN'`,
      [versionId, userId],
    );
    return rows[0]?.content ?? null;
  }
}
