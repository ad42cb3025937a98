import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';
import { TokenIdentityCache } from '../auth/tokens/token-identity-cache.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { DEFAULT_PAGE_LIMIT, newestFirstCursor, pageOf, pageRequestOf, searchText } from '../common/page-cursor.js';
import { ChangeFeed } from '../database/change-feed.js';
import { AdminUsersRepository } from './admin-users.repository.js';
import { isUuid } from './admin-users.service.js';
import type { AdminWorkspaceDto, AdminWorkspacesPageDto } from './admin-workspaces.dto.js';
import { AdminWorkspacesRepository, type AdminWorkspaceRow } from './admin-workspaces.repository.js';

export const ADMIN_WORKSPACES_CURSOR = newestFirstCursor('admin-workspaces');

const NOT_FOUND = '工作区不存在';

/** Shared workspaces as administrators see them: the list with members, usage and quota; a quota change. */
@Injectable()
export class AdminWorkspacesService {
  constructor(
    private readonly db: DataSource,
    private readonly workspaces: AdminWorkspacesRepository,
    private readonly users: AdminUsersRepository,
    private readonly audit: AuditLog,
    private readonly feed: ChangeFeed,
    private readonly tokenIdentities: TokenIdentityCache,
  ) {}

  async list(query: { q?: string; limit?: string; cursor?: string }): Promise<AdminWorkspacesPageDto> {
    const page = pageRequestOf(ADMIN_WORKSPACES_CURSOR, query) ?? { limit: DEFAULT_PAGE_LIMIT, after: null };
    const found = await this.workspaces.page(searchText(query.q), page);
    const { rows, nextCursor } = pageOf(found, page.limit, ADMIN_WORKSPACES_CURSOR, (row) => ({
      createdAt: row.cursor_time,
      id: row.id,
    }));
    return { workspaces: rows.map(view), nextCursor };
  }

  async get(workspaceId: string): Promise<AdminWorkspaceDto> {
    const row = isUuid(workspaceId) ? await this.workspaces.find(workspaceId) : null;
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, NOT_FOUND);
    return view(row);
  }

  /**
   * Sets a shared workspace's quota, with its audit event on the workspace's trail, as an
   * account's quota is set. A quota below the usage deletes nothing; uploads are refused.
   */
  async setQuota(actorId: string, workspaceId: string, quotaBytes: number): Promise<AdminWorkspaceDto> {
    if (!isUuid(workspaceId)) throw new AppError(ErrorCode.NOT_FOUND, NOT_FOUND);
    await this.db.transaction(async (manager) => {
      // Only a shared workspace: an account's quota is set on the account (PATCH /api/admin/users/{id}).
      if (!(await this.workspaces.lock(manager, workspaceId))) throw new AppError(ErrorCode.NOT_FOUND, NOT_FOUND);
      const previous = await this.users.setQuota(manager, workspaceId, quotaBytes);
      if (previous !== quotaBytes) {
        await this.audit.within(manager, {
          userId: workspaceId,
          actorId,
          targetId: workspaceId,
          action: AuditAction.adminQuotaChanged,
          details: { from: previous, to: quotaBytes },
        });
        await this.feed.publish('accounts', workspaceId, manager);
      }
    });
    // Committed: this process's tokens of the workspace read the new quota now.
    this.tokenIdentities.forgetUser(workspaceId);
    return this.get(workspaceId);
  }
}

function view(row: AdminWorkspaceRow): AdminWorkspaceDto {
  return {
    id: row.id,
    name: row.name,
    segment: row.segment,
    owners: row.owners,
    memberCount: row.member_count,
    quotaBytes: Number(row.quota_bytes),
    usedBytes: Number(row.used_bytes),
    fileCount: row.file_count,
    shareCount: row.share_count,
    createdAt: row.created_at.toISOString(),
  };
}
