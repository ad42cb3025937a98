import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { rows } from '../common/sql.js';
import { cursorTimeSql, type NewestFirstKey, type PageRequest } from '../common/page-cursor.js';
import { newestUsersPage } from './admin-users.repository.js';

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
const ADMIN_WORKSPACE_COLUMNS = `u.id, u.name, u.segment, u.quota_bytes, u.used_bytes, u.created_at,
  (SELECT count(*)::int FROM workspace_members m WHERE m.workspace_id = u.id) AS member_count,
  (SELECT count(*)::int FROM files f WHERE f.user_id = u.id AND f.deleted_at IS NULL) AS file_count,
  (SELECT count(*)::int FROM shares s WHERE s.user_id = u.id) AS share_count,
  coalesce((SELECT jsonb_agg(jsonb_build_object('userId', o.id, 'email', o.email) ORDER BY m.joined_at, o.id)
              FROM workspace_members m JOIN users o ON o.id = m.user_id
             WHERE m.workspace_id = u.id AND m.role = 'OWNER'), '[]'::jsonb) AS owners,
  ${cursorTimeSql('u.created_at')} AS cursor_time`;

/** SQL of the administrators' view of shared workspaces: the `users` rows of kind `workspace`. */
@Injectable()
export class AdminWorkspacesRepository {
  constructor(private readonly db: DataSource) {}

  async find(workspaceId: string, manager: EntityManager = this.db.manager): Promise<AdminWorkspaceRow | null> {
    const found = await rows<AdminWorkspaceRow>(
      manager,
      `SELECT ${ADMIN_WORKSPACE_COLUMNS} FROM users u WHERE u.id = $1 AND u.kind = 'workspace'`,
      [workspaceId],
    );
    return found[0] ?? null;
  }

  /** One page, newest first, and one row more; `q` matches the name or the segment. */
  async page(q: string | undefined, page: PageRequest<NewestFirstKey>): Promise<AdminWorkspaceRow[]> {
    return newestUsersPage<AdminWorkspaceRow>(
      this.db,
      { columns: ADMIN_WORKSPACE_COLUMNS, kind: 'workspace', searched: ['name', 'segment'] },
      q,
      page,
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
