import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import { InstanceSettingsRepository, type ClaimedInvite, type RegistrationMode } from './instance-settings.repository.js';
import { sha256Hex } from '../secrets.js';

export const REGISTRATION_CLOSED_MESSAGE = '本服务未开放注册';
export const INVITE_REQUIRED_MESSAGE = '本服务仅限受邀注册：请使用管理员发给你的邀请链接';
export const INVITE_INVALID_MESSAGE = '邀请链接无效或已被撤销';

/**
 * Whether a new account may be made now. The mode is read from the database at every
 * registration, so a change an administrator makes holds on every replica from the next request.
 * Until an administrator chooses, ALLOW_REGISTRATION decides (true: open, false: closed).
 */
@Injectable()
export class RegistrationPolicy {
  constructor(
    private readonly settings: InstanceSettingsRepository,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  get defaultMode(): RegistrationMode {
    return this.runtime.env.ALLOW_REGISTRATION ? 'open' : 'closed';
  }

  async mode(manager?: EntityManager): Promise<RegistrationMode> {
    return (await this.settings.registrationMode(manager)) ?? this.defaultMode;
  }

  /**
   * A registration with a password (console, e-mail verification): closed refuses it, invite-only
   * wants an invitation (checked when it is used, see `useInvite`). 403 FORBIDDEN otherwise.
   */
  async assertMayRegister(invite: string | undefined): Promise<RegistrationMode> {
    const mode = await this.mode();
    if (mode === 'closed') throw new AppError(ErrorCode.FORBIDDEN, REGISTRATION_CLOSED_MESSAGE);
    if (mode === 'invite' && !invite) throw new AppError(ErrorCode.FORBIDDEN, INVITE_REQUIRED_MESSAGE);
    return mode;
  }

  /**
   * Uses the invitation for `email` in the transaction that makes the account: of parallel
   * registrations with one invitation exactly one gets it, the others 409 CONFLICT (used); an
   * unknown, revoked, expired or other address's invitation gets 403 FORBIDDEN.
   */
  async useInvite(manager: EntityManager, invite: string, email: string): Promise<ClaimedInvite> {
    const digest = sha256Hex(invite);
    const claimed = await this.settings.claimInvite(manager, digest, email);
    if (claimed) return claimed;
    const state = await this.settings.inviteState(digest);
    if (state?.used) throw new AppError(ErrorCode.CONFLICT, '该邀请链接已被使用');
    if (state?.expired) throw new AppError(ErrorCode.FORBIDDEN, '邀请链接已过期');
    if (state) throw new AppError(ErrorCode.FORBIDDEN, '该邀请链接不适用于这个电子邮件地址');
    throw new AppError(ErrorCode.FORBIDDEN, INVITE_INVALID_MESSAGE);
  }

  recordInviteUse(manager: EntityManager, inviteId: string, userId: string): Promise<void> {
    return this.settings.recordInviteUse(manager, inviteId, userId);
  }

  /** An account made another way than a password registration (an e-mail code): only while registration is open. */
  async openToNewAccounts(): Promise<boolean> {
    return (await this.mode()) === 'open';
  }
}
