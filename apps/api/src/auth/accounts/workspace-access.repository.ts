import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Administrators } from './administrators.js';
import type { AuthUser, WorkspaceRole } from '../auth-context.js';
import { toAuthUser, USER_COLUMNS, type UserRow } from './users.repository.js';

/** The header a console request names the workspace it acts in with (a tab's own choice, never a cookie). */
export const WORKSPACE_HEADER = 'x-sharedown-workspace';
/** The same for a download link of the console (a CSV, an export), which cannot send a header. */
export const WORKSPACE_QUERY = 'workspace';

/**
 * The console's routes that act in a workspace (its documents, links, requests, tokens, webhooks,
 * notifications and activity). Everything else a session does (sign-in, two factors, sessions,
 * the account, administration) is the account's own.
 */
const WORKSPACE_SCOPED = ['/api/console/', '/api/tokens', '/api/webhooks', '/api/notifications', '/api/audit'];

export function actsInWorkspace(url: string): boolean {
  return WORKSPACE_SCOPED.some((prefix) => url.startsWith(prefix));
}

/** A member's way into a shared workspace: the workspace's owner row and the member's role now. */
export interface WorkspaceAccess {
  workspace: AuthUser;
  role: WorkspaceRole;
}

/** Who may act in which shared workspace, read on every request that names one (a removal holds at once). */
@Injectable()
export class WorkspaceAccessRepository {
  constructor(
    private readonly db: DataSource,
    private readonly administrators: Administrators,
  ) {}

  async access(workspaceId: string, userId: string): Promise<WorkspaceAccess | null> {
    const rows: Array<UserRow & { member_role: WorkspaceRole }> = await this.db.query(
      `SELECT ${USER_COLUMNS}, m.role AS member_role
         FROM workspace_members m JOIN users u ON u.id = m.workspace_id AND u.kind = 'workspace' AND u.disabled_at IS NULL
        WHERE m.workspace_id = $1 AND m.user_id = $2`,
      [workspaceId, userId],
    );
    const row = rows[0];
    return row ? { workspace: toAuthUser(row, this.administrators), role: row.member_role } : null;
  }
}
