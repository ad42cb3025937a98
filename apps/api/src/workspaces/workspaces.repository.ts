import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { WorkspaceRole } from '../auth/auth-context.js';
import { isCursorUuid, type CursorKey } from '../common/page-cursor.js';
import { rows as queryRows } from '../common/sql.js';
import type { Columns } from '../database/rows.js';

/** Where a page of members ends: the e-mail address and id of its last member (the list's order keys). */
export const MEMBERS_CURSOR: CursorKey<{ email: string; userId: string }> = {
  list: 'members',
  encode: (key) => [key.email, key.userId],
  parse: ([email, userId, ...rest]) =>
    rest.length === 0 && email !== undefined && email.length <= 254 && isCursorUuid(userId) ? { email, userId } : null,
};

export interface WorkspaceRow {
  id: string;
  name: string;
  segment: string;
  quotaBytes: number;
  usedBytes: number;
  memberCount: number;
}

export interface MemberRow {
  userId: string;
  email: string;
  role: WorkspaceRole;
  joinedAt: Date;
}

export interface InvitationRow {
  id: string;
  workspaceId: string;
  email: string;
  role: WorkspaceRole;
  createdAt: Date;
  expiresAt: Date;
}

const WORKSPACE_COLUMNS = `w.id, w.name, w.segment, w.quota_bytes, w.used_bytes,
  (SELECT count(*)::int FROM workspace_members c WHERE c.workspace_id = w.id) AS member_count`;

/** WORKSPACE_COLUMNS: a workspace's users row, and a computed column. */
type WorkspaceColumns = Columns<
  'users',
  'id' | 'name' | 'segment' | 'quota_bytes' | 'used_bytes',
  // A shared workspace has a name (only a person's row has none).
  { name: string }
> & {
  /** Computed: count(*)::int of its members. */
  member_count: number;
};

/** The member queries' columns: the membership's, and the member's e-mail (a person has one). */
type MemberColumns = Columns<'workspace_members', 'user_id' | 'role' | 'joined_at', { role: WorkspaceRole }> &
  Columns<'users', 'email', { email: string }>;

function toWorkspace(row: WorkspaceColumns): WorkspaceRow {
  return {
    id: row.id,
    name: row.name,
    segment: row.segment,
    quotaBytes: Number(row.quota_bytes),
    usedBytes: Number(row.used_bytes),
    memberCount: row.member_count,
  };
}

/** INVITATION_COLUMNS. */
function toInvitation(
  row: Columns<
    'workspace_invitations',
    'id' | 'workspace_id' | 'email' | 'role' | 'created_at' | 'expires_at',
    { role: WorkspaceRole }
  >,
): InvitationRow {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    email: row.email,
    role: row.role,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

const INVITATION_COLUMNS = 'i.id, i.workspace_id, i.email, i.role, i.created_at, i.expires_at';

/** Shared workspaces (owner rows of kind `workspace`), their members and invitations. */
@Injectable()
export class WorkspacesRepository {
  constructor(private readonly db: DataSource) {}

  async insert(manager: EntityManager, workspace: { name: string; segment: string; quotaBytes: number }): Promise<string> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO users (kind, name, segment, quota_bytes) VALUES ('workspace', $1, $2, $3) RETURNING id`,
      [workspace.name, workspace.segment, workspace.quotaBytes],
    );
    return rows[0]!.id;
  }

  async find(id: string, manager: EntityManager = this.db.manager): Promise<WorkspaceRow | null> {
    const rows = await manager.query(`SELECT ${WORKSPACE_COLUMNS} FROM users w WHERE w.id = $1 AND w.kind = 'workspace'`, [id]);
    return rows[0] ? toWorkspace(rows[0]) : null;
  }

  /** The shared workspaces an account is a member of, by name, with its role in each. */
  async ofMember(userId: string): Promise<Array<WorkspaceRow & { role: WorkspaceRole }>> {
    const rows: Array<WorkspaceColumns & { role: WorkspaceRole }> = await this.db.query(
      `SELECT ${WORKSPACE_COLUMNS}, m.role FROM workspace_members m JOIN users w ON w.id = m.workspace_id AND w.kind = 'workspace'
        WHERE m.user_id = $1 ORDER BY lower(w.name), w.id`,
      [userId],
    );
    return rows.map((row) => ({ ...toWorkspace(row), role: row.role }));
  }

  /**
   * Locks the workspace's row: role changes, removals and acceptances take turns, so two owners
   * demoting each other at once leave one owner.
   */
  async lock(manager: EntityManager, id: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT id FROM users WHERE id = $1 AND kind = 'workspace' FOR UPDATE`, [id]);
    return rows.length === 1;
  }

  async rename(manager: EntityManager, id: string, name: string): Promise<void> {
    await manager.query(`UPDATE users SET name = $2 WHERE id = $1 AND kind = 'workspace'`, [id, name]);
  }

  async fileCount(manager: EntityManager, id: string): Promise<number> {
    const rows: Array<{ n: number }> = await manager.query('SELECT count(*)::int AS n FROM files WHERE user_id = $1', [id]);
    return rows[0]!.n;
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM users WHERE id = $1 AND kind = 'workspace'`, [id]);
  }

  async members(workspaceId: string, limit: number, after: { email: string; userId: string } | null): Promise<MemberRow[]> {
    const rows: Array<MemberColumns> = await this.db.query(
      `SELECT m.user_id, u.email, m.role, m.joined_at FROM workspace_members m JOIN users u ON u.id = m.user_id
        WHERE m.workspace_id = $1 AND ($2::text IS NULL OR (lower(u.email), u.id) > (lower($2), $3::uuid))
        ORDER BY lower(u.email), u.id LIMIT $4`,
      [workspaceId, after?.email ?? null, after?.userId ?? null, limit],
    );
    return rows.map((row) => ({ userId: row.user_id, email: row.email, role: row.role, joinedAt: row.joined_at }));
  }

  async member(manager: EntityManager, workspaceId: string, userId: string): Promise<MemberRow | null> {
    const rows: Array<MemberColumns> = await manager.query(
      `SELECT m.user_id, u.email, m.role, m.joined_at FROM workspace_members m JOIN users u ON u.id = m.user_id
        WHERE m.workspace_id = $1 AND m.user_id = $2`,
      [workspaceId, userId],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, email: row.email, role: row.role, joinedAt: row.joined_at } : null;
  }

  async ownerCount(manager: EntityManager, workspaceId: string): Promise<number> {
    const rows: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM workspace_members WHERE workspace_id = $1 AND role = 'OWNER'`,
      [workspaceId],
    );
    return rows[0]!.n;
  }

  async addMember(manager: EntityManager, workspaceId: string, userId: string, role: WorkspaceRole): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id`,
      [workspaceId, userId, role],
    );
    return rows.length === 1;
  }

  async setRole(manager: EntityManager, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    await manager.query('UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2', [
      workspaceId,
      userId,
      role,
    ]);
  }

  async removeMember(manager: EntityManager, workspaceId: string, userId: string): Promise<void> {
    await manager.query('DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2', [workspaceId, userId]);
  }

  async insertInvitation(
    manager: EntityManager,
    invitation: { workspaceId: string; email: string; role: WorkspaceRole; tokenHash: string; invitedBy: string; days: number },
  ): Promise<InvitationRow> {
    const rows = await manager.query(
      `INSERT INTO workspace_invitations AS i (workspace_id, email, role, token_hash, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6)) RETURNING ${INVITATION_COLUMNS}`,
      [invitation.workspaceId, invitation.email, invitation.role, invitation.tokenHash, invitation.invitedBy, invitation.days],
    );
    return toInvitation(rows[0]);
  }

  /** Pending invitations (not accepted, revoked or expired), newest first. */
  async pendingInvitations(
    workspaceId: string,
    limit: number,
    after: { createdAt: string; id: string } | null,
  ): Promise<InvitationRow[]> {
    const rows = await this.db.query(
      `SELECT ${INVITATION_COLUMNS} FROM workspace_invitations i
        WHERE i.workspace_id = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
          AND ($2::timestamptz IS NULL OR (i.created_at, i.id) < ($2::timestamptz, $3::uuid))
        ORDER BY i.created_at DESC, i.id DESC LIMIT $4`,
      [workspaceId, after?.createdAt ?? null, after?.id ?? null, limit],
    );
    return rows.map(toInvitation);
  }

  async revokeInvitation(manager: EntityManager, workspaceId: string, id: string): Promise<InvitationRow | null> {
    const rows = await queryRows<Parameters<typeof toInvitation>[0]>(
      manager,
      `UPDATE workspace_invitations i SET revoked_at = now()
        WHERE i.id = $1 AND i.workspace_id = $2 AND i.accepted_at IS NULL AND i.revoked_at IS NULL
        RETURNING ${INVITATION_COLUMNS}`,
      [id, workspaceId],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /** The invitation a link's secret names, with its workspace's name, whatever its state. */
  async invitationByHash(
    tokenHash: string,
  ): Promise<(InvitationRow & { workspaceName: string; usable: boolean; accepted: boolean }) | null> {
    const rows = await this.db.query(
      `SELECT ${INVITATION_COLUMNS}, w.name AS workspace_name, i.accepted_at IS NOT NULL AS accepted,
              (i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()) AS usable
         FROM workspace_invitations i JOIN users w ON w.id = i.workspace_id WHERE i.token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    return row ? { ...toInvitation(row), workspaceName: row.workspace_name, usable: row.usable, accepted: row.accepted } : null;
  }

  /** Uses an invitation once: of parallel acceptances, one gets it. */
  async useInvitation(manager: EntityManager, id: string, userId: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE workspace_invitations SET accepted_at = now(), accepted_by = $2
        WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now() RETURNING id`,
      [id, userId],
    );
    return rows.length === 1;
  }

  /** Shared workspaces with other members of which the account is the only owner (its deletion would orphan them). */
  async soleOwnerOf(userId: string): Promise<Array<{ id: string; name: string }>> {
    return this.db.query(
      `SELECT w.id, w.name FROM workspace_members m JOIN users w ON w.id = m.workspace_id
        WHERE m.user_id = $1 AND m.role = 'OWNER'
          AND NOT EXISTS (SELECT 1 FROM workspace_members o WHERE o.workspace_id = m.workspace_id AND o.role = 'OWNER' AND o.user_id <> $1)
          AND EXISTS (SELECT 1 FROM workspace_members o WHERE o.workspace_id = m.workspace_id AND o.user_id <> $1)
        ORDER BY lower(w.name)`,
      [userId],
    );
  }
}
