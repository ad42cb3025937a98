import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { AccountsService } from '../accounts/accounts.service.js';
import type { AuthUser } from '../auth-context.js';
import { hashPassword } from '../accounts/password-hasher.js';
import { ACCOUNT_DISABLED_MESSAGE } from '../sessions/sessions.service.js';
import { TokenIdentityCache } from '../tokens/token-identity-cache.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { EmailAccountsRepository } from './email-accounts.repository.js';
import { EmailCodesService } from './email-codes.service.js';

/**
 * A forgotten password: a code to the address (only when it has an account; the answer is the
 * same either way), then a new password, which proves the address and ends every session. A
 * disabled account is refused with its code unused and its password as it was.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly codes: EmailCodesService,
    private readonly users: UsersRepository,
    private readonly emailAccounts: EmailAccountsRepository,
    private readonly accounts: AccountsService,
    private readonly identities: TokenIdentityCache,
  ) {}

  async request(email: string, clientAddress: string): Promise<void> {
    this.codes.assertEnabled();
    this.accounts.assertPasswordLogin();
    await this.codes.send(email, 'reset', clientAddress);
  }

  async confirm(
    email: string,
    code: string,
    newPassword: string,
    twoFactorCode: string | undefined,
    clientAddress: string,
  ): Promise<AuthUser> {
    this.codes.assertEnabled();
    this.accounts.assertPasswordLogin();
    const checked = await this.codes.check(email, 'reset', code, clientAddress);
    const account = await this.users.findCredentials(email);
    if (!account) throw new AppError(ErrorCode.UNAUTHENTICATED, '验证码错误或已失效');
    await this.codes.secondFactor(account, twoFactorCode, clientAddress);
    const passwordHash = await hashPassword(newPassword);
    await this.codes.redeem(checked, async (manager) => {
      // Judged on the locked row in the code's transaction: a refusal rolls the code's use back.
      if (!(await this.emailAccounts.resetPassword(account.id, passwordHash, manager))) {
        throw new AppError(ErrorCode.FORBIDDEN, ACCOUNT_DISABLED_MESSAGE);
      }
    });
    // A reset may have revoked the account's tokens: refused here from the very next call.
    this.identities.forgetUser(account.id);
    return (await this.users.findById(account.id))!;
  }
}
