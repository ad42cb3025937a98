import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Administrators } from '../auth/accounts/administrators.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { DEFAULT_PAGE_LIMIT, newestFirstCursor, pageOf, pageRequestOf, searchText } from '../common/page-cursor.js';
import { ChangeFeed } from '../database/change-feed.js';
import { WorkspacesService } from '../workspaces/workspaces.service.js';
import { TokenIdentityCache } from '../auth/tokens/token-identity-cache.js';
import { AccountStatusService } from './account-status.service.js';
import type { AdminUserDto, AdminUsersPageDto, UpdateAdminUserDto } from './admin.dto.js';
import { AdminUsersRepository, type AdminUserRow } from './admin-users.repository.js';

export const ADMIN_USERS_CURSOR = newestFirstCursor('admin-users');

/** Accounts as administrators manage them: list, one, quota and status, deletion. */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly db: DataSource,
    private readonly users: AdminUsersRepository,
    private readonly status: AccountStatusService,
    private readonly audit: AuditLog,
    private readonly feed: ChangeFeed,
    private readonly administrators: Administrators,
    private readonly tokenIdentities: TokenIdentityCache,
    private readonly workspaces: WorkspacesService,
  ) {}

  async list(query: { q?: string; limit?: string; cursor?: string }): Promise<AdminUsersPageDto> {
    const q = searchText(query.q);
    const page = pageRequestOf(ADMIN_USERS_CURSOR, query) ?? { limit: DEFAULT_PAGE_LIMIT, after: null };
    const found = await this.users.page(q, page);
    const { rows, nextCursor } = pageOf(found, page.limit, ADMIN_USERS_CURSOR, (row) => ({
      createdAt: row.cursor_time,
      id: row.id,
    }));
    return { users: rows.map((row) => this.view(row)), nextCursor };
  }

  async get(userId: string): Promise<AdminUserDto> {
    const row = isUuid(userId) ? await this.users.find(userId) : null;
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, '用户不存在');
    return this.view(row);
  }

  /**
   * Changes the quota and/or the status in one transaction, each with its audit event. A quota
   * below the account's usage is allowed: nothing is deleted, further uploads are refused.
   */
  async update(actorId: string, userId: string, change: UpdateAdminUserDto): Promise<AdminUserDto> {
    // Accounts only: a shared workspace's quota is set under /api/admin/workspaces.
    if (!isUuid(userId) || !(await this.users.find(userId))) throw new AppError(ErrorCode.NOT_FOUND, '用户不存在');
    await this.db.transaction(async (manager) => {
      if (change.disabled !== undefined) await this.status.setDisabled(actorId, userId, change.disabled, { manager });
      if (change.quotaBytes !== undefined) {
        const previous = await this.users.setQuota(manager, userId, change.quotaBytes);
        if (previous === null) throw new AppError(ErrorCode.NOT_FOUND, '用户不存在');
        if (previous !== change.quotaBytes) {
          await this.audit.within(manager, {
            userId,
            actorId,
            targetId: userId,
            action: AuditAction.adminQuotaChanged,
            details: { from: previous, to: change.quotaBytes },
          });
          await this.feed.publish('accounts', userId, manager);
        }
      }
      if (change.disabled === undefined && change.quotaBytes === undefined && !(await this.users.find(userId, manager))) {
        throw new AppError(ErrorCode.NOT_FOUND, '用户不存在');
      }
    });
    // Committed: this process's tokens of the account go now, not when the change feed's echo arrives.
    this.tokenIdentities.forgetUser(userId);
    return this.get(userId);
  }

  /**
   * Deletes the account and everything it owns in one transaction. The event goes on the acting
   * administrator's trail (the account's own trail is deleted with it), naming the account.
   */
  async delete(actorId: string, userId: string): Promise<void> {
    // Accounts only: a shared workspace is deleted by its owners, once it holds no files.
    if (!isUuid(userId) || !(await this.users.find(userId))) throw new AppError(ErrorCode.NOT_FOUND, '用户不存在');
    // A shared workspace with other members keeps an owner: its only owner's account stays until another is named.
    const orphaned = await this.workspaces.soleOwnerOf(userId);
    if (orphaned.length > 0) {
      const names = orphaned.map((workspace) => `「${workspace.name}」`).join('、');
      throw new AppError(ErrorCode.CONFLICT, `该账户是工作区 ${names} 唯一的所有者，且其中还有其他成员：请先指定另一名所有者`);
    }
    await this.db.transaction(async (manager) => {
      const account = await this.status.lockForRemoval(manager, actorId, userId, true);
      await this.users.delete(manager, account.id);
      await this.audit.within(manager, {
        userId: actorId,
        actorId,
        action: AuditAction.adminUserDeleted,
        targetId: account.id,
        details: { email: account.email },
      });
      // Delivered on commit: caches of the account and of its webhooks drop it on every process.
      await this.feed.publish('accounts', account.id, manager);
      await this.feed.publish('webhooks', account.id, manager);
    });
    this.tokenIdentities.forgetUser(userId);
  }

  private view(row: AdminUserRow): AdminUserDto {
    return {
      id: row.id,
      email: row.email,
      segment: row.segment,
      isAdmin: this.administrators.isAdmin({ email: row.email, emailVerified: row.email_verified, adminRole: row.admin_role }),
      disabled: row.disabled_at !== null,
      disabledAt: row.disabled_at?.toISOString() ?? null,
      quotaBytes: Number(row.quota_bytes),
      usedBytes: Number(row.used_bytes),
      fileCount: row.file_count,
      shareCount: row.share_count,
      createdAt: row.created_at.toISOString(),
      lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
    };
  }
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
