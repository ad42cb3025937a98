import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Administrators } from '../auth/accounts/administrators.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { ChangeFeed } from '../database/change-feed.js';
import { AdminUsersRepository, type LockedAccount } from './admin-users.repository.js';

/** What an administrator's change of an account may add to its audit event (never a secret). */
export type AdminActionDetails = Record<string, string | number | boolean | null>;

/**
 * Disabling and re-enabling accounts, the one way any feature stops an account (the Admin area,
 * abuse reports). A disabled account: its sessions end at once, its API tokens answer 401 (the
 * token lookup refuses it), it cannot sign in by any way (SessionsService.create refuses it), and
 * its share links answer 410 without counting a visit (the viewer's gate reads the owner's status). Re-enabling
 * gives all of that back but the sessions, which stay ended.
 */
@Injectable()
export class AccountStatusService {
  constructor(
    private readonly db: DataSource,
    private readonly accounts: AdminUsersRepository,
    private readonly audit: AuditLog,
    private readonly feed: ChangeFeed,
    private readonly administrators: Administrators,
  ) {}

  /**
   * Disables (or re-enables) `userId` on behalf of the administrator `actorId`, in `manager`'s
   * transaction when given (so a caller's own change commits with it), else in one of its own.
   * Answers whether anything changed (false: it was so already). 404 for an unknown account;
   * 409 when an administrator would disable themself or the last active administrator.
   */
  async setDisabled(
    actorId: string,
    userId: string,
    disabled: boolean,
    options: { manager?: EntityManager; details?: AdminActionDetails } = {},
  ): Promise<boolean> {
    const run = (manager: EntityManager) => this.setDisabledWithin(manager, actorId, userId, disabled, options.details ?? {});
    return options.manager ? run(options.manager) : this.db.transaction(run);
  }

  private async setDisabledWithin(
    manager: EntityManager,
    actorId: string,
    userId: string,
    disabled: boolean,
    details: AdminActionDetails,
  ): Promise<boolean> {
    const account = await this.lockForRemoval(manager, actorId, userId, disabled);
    const changed = await this.accounts.setDisabled(manager, account.id, disabled);
    if (!changed) return false;
    const endedSessions = disabled ? await this.accounts.endSessions(manager, account.id) : 0;
    await this.audit.within(manager, {
      userId: account.id,
      actorId,
      targetId: account.id,
      action: disabled ? AuditAction.adminUserDisabled : AuditAction.adminUserEnabled,
      details: disabled ? { ...details, endedSessions } : details,
    });
    // Delivered on commit: every process drops what it holds about the account.
    await this.feed.publish('accounts', account.id, manager);
    return true;
  }

  /**
   * Locks the account an administrator acts on. When the act takes an account out of use
   * (`removing`: disabling, deleting), it may be neither the administrator's own nor the last
   * active administrator; the administration lock makes two such acts at once take turns.
   */
  async lockForRemoval(manager: EntityManager, actorId: string, userId: string, removing: boolean): Promise<LockedAccount> {
    if (removing) await this.accounts.lockAdministration(manager);
    const account = await this.accounts.lockAccount(manager, userId);
    if (!account) throw new AppError(ErrorCode.NOT_FOUND, '用户不存在');
    if (!removing) return account;
    if (account.id === actorId) throw new AppError(ErrorCode.CONFLICT, '管理员不能停用或删除自己的账户');
    if (this.administrators.isAdmin(account) && !account.disabled) {
      const others = await this.accounts.countActiveAdministrators(manager, this.administrators, account.id);
      if (others === 0) throw new AppError(ErrorCode.CONFLICT, '不能停用或删除最后一位管理员');
    }
    return account;
  }
}
