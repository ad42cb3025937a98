import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InstanceSettingsRepository, type RegistrationMode } from '../auth/accounts/instance-settings.repository.js';
import { RegistrationPolicy } from '../auth/accounts/registration-policy.js';
import { randomToken, sha256Hex } from '../auth/secrets.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import {
  INVITE_DAYS,
  type AdminStatsDto,
  type CreatedInviteDto,
  type InviteDto,
  type RegistrationSettingsDto,
} from './admin.dto.js';
import { isUuid } from './admin-users.service.js';
import { InstanceStatsRepository } from './instance-stats.repository.js';
import { InvitesRepository, type InviteRow } from './invites.repository.js';

const INVITE_LIST_MAX = 500;

/** The instance as a whole: its registration mode, invitations and totals. */
@Injectable()
export class InstanceAdminService {
  constructor(
    private readonly db: DataSource,
    private readonly settings: InstanceSettingsRepository,
    private readonly registration: RegistrationPolicy,
    private readonly invites: InvitesRepository,
    private readonly stats: InstanceStatsRepository,
    private readonly audit: AuditLog,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  async registrationSettings(): Promise<RegistrationSettingsDto> {
    const chosen = await this.settings.registrationMode();
    return { registration: chosen ?? this.registration.defaultMode, chosen: chosen !== null };
  }

  /** Every replica reads the mode at each registration: the change holds from the next request on. */
  async setRegistration(actorId: string, mode: RegistrationMode): Promise<RegistrationSettingsDto> {
    await this.db.transaction(async (manager) => {
      const before = (await this.settings.registrationMode(manager)) ?? this.registration.defaultMode;
      await this.settings.setRegistrationMode(manager, mode);
      await this.audit.within(manager, {
        userId: actorId,
        actorId,
        action: AuditAction.adminRegistrationChanged,
        details: { from: before, to: mode },
      });
    });
    return { registration: mode, chosen: true };
  }

  /** A new invitation: 128 random bits in the link, only their digest kept. */
  async createInvite(actorId: string, options: { email?: string; expiresInDays?: number }): Promise<CreatedInviteDto> {
    const token = randomToken(24);
    const email = options.email?.trim() || null;
    const row = await this.db.transaction(async (manager) => {
      const created = await this.invites.insert(manager, {
        tokenHash: sha256Hex(token),
        email,
        createdBy: actorId,
        days: options.expiresInDays ?? INVITE_DAYS.default,
      });
      await this.audit.within(manager, {
        userId: actorId,
        actorId,
        action: AuditAction.adminInviteCreated,
        targetId: created.id,
        details: { email, expiresAt: created.expires_at.toISOString() },
      });
      return created;
    });
    return {
      id: row.id,
      url: `${this.runtime.env.PUBLIC_URL}/register?invite=${token}`,
      expiresAt: row.expires_at.toISOString(),
      email: row.email,
    };
  }

  async listInvites(): Promise<InviteDto[]> {
    return (await this.invites.list(INVITE_LIST_MAX)).map(inviteView);
  }

  async revokeInvite(actorId: string, inviteId: string): Promise<void> {
    if (!isUuid(inviteId)) throw new AppError(ErrorCode.NOT_FOUND, '邀请不存在');
    await this.db.transaction(async (manager) => {
      const removed = await this.invites.delete(manager, inviteId);
      if (!removed) throw new AppError(ErrorCode.NOT_FOUND, '邀请不存在');
      await this.audit.within(manager, {
        userId: actorId,
        actorId,
        action: AuditAction.adminInviteRevoked,
        targetId: removed.id,
        details: { email: removed.email, used: removed.used_at !== null },
      });
    });
  }

  async totals(): Promise<AdminStatsDto> {
    const row = await this.stats.totals();
    return {
      users: row.users,
      disabledUsers: row.disabled_users,
      files: row.files,
      bytes: Number(row.bytes),
      shares: row.shares,
      activeShares: row.active_shares,
      visitsToday: Number(row.visits_today),
    };
  }
}

function inviteView(row: InviteRow): InviteDto {
  return {
    id: row.id,
    email: row.email,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    usedAt: row.used_at?.toISOString() ?? null,
    usedBy: row.used_by,
    createdBy: row.created_by,
    status: row.used_at ? 'used' : row.expired ? 'expired' : 'pending',
  };
}
