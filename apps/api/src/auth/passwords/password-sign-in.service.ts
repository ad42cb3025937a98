import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { AccountsService } from '../accounts/accounts.service.js';
import type { AuthUser } from '../auth-context.js';
import { TWO_FACTOR_REQUIRED, TwoFactorService } from '../two-factor/two-factor.service.js';
import { AuditAction } from '../../audit/audit-action.js';
import { AuditLog } from '../../audit/audit-log.js';
import { maskedIpPrefix } from '../../common/client-address.js';
import { UsersRepository } from '../accounts/users.repository.js';

/**
 * Sign-in with e-mail and password, and the second factor when the account has one. The code
 * is looked at only after the password was right, so guessing codes needs the password first;
 * an address never proven is refused only after both (AccountsService.assertPasswordMayOpen).
 */
@Injectable()
export class PasswordSignInService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly twoFactor: TwoFactorService,
    private readonly users: UsersRepository,
    private readonly audit: AuditLog,
  ) {}

  async signIn(email: string, password: string, code: string | undefined, clientAddress: string): Promise<AuthUser> {
    let user: AuthUser;
    try {
      user = await this.accounts.login(email, password, clientAddress);
    } catch (error) {
      if (isRefusal(error)) await this.recordFailure(email, 'password', clientAddress);
      throw error;
    }
    if (user.twoFactorEnabled) await this.secondFactor(user, code, clientAddress);
    this.accounts.assertPasswordMayOpen(user);
    return user;
  }

  private async secondFactor(user: AuthUser, code: string | undefined, clientAddress: string): Promise<void> {
    if (!code) throw new AppError(ErrorCode.UNAUTHENTICATED, '请输入两步验证码', { extras: TWO_FACTOR_REQUIRED });
    try {
      await this.twoFactor.checkSignIn(user.id, code, clientAddress);
    } catch (error) {
      if (isRefusal(error))
        await this.audit.record({
          userId: user.id,
          action: AuditAction.signInFailed,
          details: { reason: 'two_factor' },
          ipPrefix: maskedIpPrefix(clientAddress),
        });
      throw error;
    }
  }

  /**
   * A wrong password for an existing account goes on that account's trail (an unknown address has
   * no trail). Throttled attempts (429) are not recorded: the throttle bounds how many rows a flood writes.
   */
  private async recordFailure(email: string, reason: string, clientAddress: string): Promise<void> {
    const account = await this.users.findCredentials(email).catch(() => null);
    if (account)
      await this.audit.record({
        userId: account.id,
        action: AuditAction.signInFailed,
        details: { reason },
        ipPrefix: maskedIpPrefix(clientAddress),
      });
  }
}

function isRefusal(error: unknown): boolean {
  return error instanceof AppError && error.code === ErrorCode.UNAUTHENTICATED;
}
