import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { rows } from '../common/sql.js';
import {
  containsPattern,
  cursorTimeSql,
  newestFirstAfterSql,
  type NewestFirstKey,
  type PageRequest,
} from '../common/page-cursor.js';

/** A shared workspace as the administrators' pages show it. */
export interface AdminWorkspaceRow {
  id: string;
  name: string;
  segment: string;
  quota_bytes: string;
  used_bytes: string;
  member_count: number;
  file_count: number;
  share_count: number;
  owners: Array<{ userId: string; email: string }>;
  created_at: Date;
  cursor_time: string;
}

// Counts and owners are read with the workspace's row; a page is at most 100 rows.
const ADMIN_WORKSPACE_COLUMNS = `w.id, w.name, w.segment, w.quota_bytes, w.used_bytes, w.created_at,
  (SELECT count(*)::int FROM workspace_members m WHERE m.workspace_id = w.id) AS member_count,
  (SELECT count(*)::int FROM files f WHERE f.user_id = w.id AND f.deleted_at IS NULL) AS file_count,
  (SELECT count(*)::int FROM shares s WHERE s.user_id = w.id) AS share_count,
  coalesce((SELECT jsonb_agg(jsonb_build_object('userId', u.id, 'email', u.email) ORDER BY m.joined_at, u.id)
              FROM workspace_members m JOIN users u ON u.id = m.user_id
             WHERE m.workspace_id = w.id AND m.role = 'OWNER'), '[]'::jsonb) AS owners,
  ${cursorTimeSql('w.created_at')} AS cursor_time`;

/** SQL of the administrators' view of shared workspaces: the `users` rows of kind `workspace`. */
@Injectable()
export class AdminWorkspacesRepository {
  constructor(private readonly db: DataSource) {}

  async find(workspaceId: string, manager: EntityManager = this.db.manager): Promise<AdminWorkspaceRow | null> {
    const found = await rows<AdminWorkspaceRow>(
      manager,
      `SELECT ${ADMIN_WORKSPACE_COLUMNS} FROM users w WHERE w.id = $1 AND w.kind = 'workspace'`,
      [workspaceId],
    );
    return found[0] ?? null;
  }

  /** One page, newest first, and one row more; `q` matches the name or the segment. */
  async page(q: string | undefined, page: PageRequest<NewestFirstKey>): Promise<AdminWorkspaceRow[]> {
    const params: unknown[] = [];
    const where: string[] = ["w.kind = 'workspace'"];
    if (q) {
      params.push(containsPattern(q));
      where.push(`(w.name ILIKE $${params.length} OR w.segment ILIKE $${params.length})`);
    }
    if (page.after) {
      params.push(page.after.createdAt, page.after.id);
      where.push(newestFirstAfterSql(params.length - 1, params.length, 'w.'));
    }
    params.push(page.limit + 1);
    return rows<AdminWorkspaceRow>(
      this.db,
      `SELECT ${ADMIN_WORKSPACE_COLUMNS} FROM users w WHERE ${where.join(' AND ')}
       ORDER BY w.created_at DESC, w.id DESC LIMIT $${params.length}`,
      params,
    );
  }

  /** Locks a shared workspace's row for a change of its quota; false when there is none. */
  async lock(manager: EntityManager, workspaceId: string): Promise<boolean> {
    const found = await rows<{ id: string }>(manager, `SELECT id FROM users WHERE id = $1 AND kind = 'workspace' FOR UPDATE`, [
      workspaceId,
    ]);
    return found.length === 1;
  }
}
