import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { ACCOUNT_DISABLED_MESSAGE } from '../sessions/sessions.service.js';
import { AccountsService } from '../accounts/accounts.service.js';
import type { AuthUser } from '../auth-context.js';
import { RegistrationPolicy } from '../accounts/registration-policy.js';
import { TokenIdentityCache } from '../tokens/token-identity-cache.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { EmailAccountsRepository } from './email-accounts.repository.js';
import { EmailCodesService } from './email-codes.service.js';

/** Thrown inside the transaction when a parallel registration took the address: nothing is kept. */
class LostRace extends AppError {
  constructor() {
    super(ErrorCode.CONFLICT, '该电子邮件刚刚被注册，请重新获取验证码');
  }
}

/**
 * Sign-in with a one-time code mailed to the address. The first sign-in of an unknown address
 * creates its account, proven and without a password, only while registration is open (invite-only
 * and closed instances send no code to an unknown address and accept none for one).
 */
@Injectable()
export class EmailSignInService {
  constructor(
    private readonly codes: EmailCodesService,
    private readonly users: UsersRepository,
    private readonly emailAccounts: EmailAccountsRepository,
    private readonly accounts: AccountsService,
    private readonly registration: RegistrationPolicy,
    private readonly identities: TokenIdentityCache,
  ) {}

  get enabled(): boolean {
    return this.codes.enabled;
  }

  async send(email: string, clientAddress: string): Promise<void> {
    await this.codes.send(email, 'sign-in', clientAddress);
  }

  async verify(email: string, code: string, twoFactorCode: string | undefined, clientAddress: string): Promise<AuthUser> {
    const checked = await this.codes.check(email, 'sign-in', code, clientAddress);
    const existing = await this.users.findCredentials(email);
    if (!existing && !(await this.registration.openToNewAccounts())) {
      throw new AppError(ErrorCode.UNAUTHENTICATED, '验证码错误或已失效');
    }
    if (existing) await this.codes.secondFactor(existing, twoFactorCode, clientAddress);
    const userId = await this.codes.redeem(checked, async (manager) => {
      if (existing) {
        // A disabled account is neither claimed nor signed in, and its code stays unused.
        if (await this.emailAccounts.lockDisabled(existing.id, manager)) {
          throw new AppError(ErrorCode.FORBIDDEN, ACCOUNT_DISABLED_MESSAGE);
        }
        await this.emailAccounts.claim(existing.id, manager);
        return existing.id;
      }
      const created = await this.accounts.createAccount(email.trim(), { passwordHash: null, emailVerified: true, manager });
      if (!created) throw new LostRace();
      return created.id;
    });
    // A claim revokes the account's tokens: refused here from the very next call.
    if (existing) this.identities.forgetUser(existing.id);
    return (await this.users.findById(userId))!;
  }
}
