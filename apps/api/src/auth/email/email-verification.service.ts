import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { ACCOUNT_DISABLED_MESSAGE } from '../sessions/sessions.service.js';
import { AccountsService } from '../accounts/accounts.service.js';
import type { AuthUser } from '../auth-context.js';
import { hashPassword } from '../accounts/password-hasher.js';
import { RegistrationPolicy } from '../accounts/registration-policy.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { EmailAccountsRepository } from './email-accounts.repository.js';
import { EmailCodesService } from './email-codes.service.js';

/** What a proven code did: the account, and whether the caller must now be signed in to it. */
export interface Verified {
  user: AuthUser;
  signIn: boolean;
}

/**
 * Proving the address of a password account. With e-mail configured, registration answers the
 * same whether or not the address already has an account: a new account is made unproven and gets
 * a code, an existing one's owner is told that someone tried. Accounts made before e-mail was
 * configured ask for a code while signed in.
 */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly codes: EmailCodesService,
    private readonly users: UsersRepository,
    private readonly emailAccounts: EmailAccountsRepository,
    private readonly accounts: AccountsService,
    private readonly registration: RegistrationPolicy,
    private readonly db: DataSource,
  ) {}

  get enabled(): boolean {
    return this.codes.enabled;
  }

  /**
   * The work is the same on both paths (the send allowance, a password hash, one insert attempt,
   * one queued job), so neither the answer nor its timing tells whether the address was taken.
   */
  async register(email: string, password: string, clientAddress: string, invite?: string): Promise<void> {
    this.accounts.assertPasswordLogin();
    const mode = await this.registration.assertMayRegister(invite);
    await this.codes.takeSend(email, clientAddress);
    const passwordHash = await hashPassword(password);
    // Invite-only: the invitation is used whether or not the address already has an account, or
    // trying it again afterwards would tell which; only an account it made is recorded on it.
    const created = await this.db.transaction(async (manager) => {
      const used = mode === 'invite' ? await this.registration.useInvite(manager, invite!, email.trim()) : null;
      const account = await this.accounts.createAccount(email.trim(), { passwordHash, emailVerified: false, manager });
      if (used && account) await this.registration.recordInviteUse(manager, used.id, account.id);
      return account;
    });
    await this.codes.enqueue(
      created ? { kind: 'code', purpose: 'verify', email: created.email } : { kind: 'registration-attempt', email: email.trim() },
    );
  }

  /** A code for the signed-in account's own address. */
  async sendForAccount(user: AuthUser, clientAddress: string): Promise<void> {
    this.codes.assertEnabled();
    if (user.emailVerified) throw new AppError(ErrorCode.CONFLICT, '电子邮件地址已经验证过了');
    await this.codes.send(user.email, 'verify', clientAddress);
  }

  /**
   * Proves the address. The account signed in on this request is only marked proven; anyone else
   * holding the code is signed in (after the second factor, when the account has one).
   */
  async verify(
    email: string,
    code: string,
    twoFactorCode: string | undefined,
    signedIn: AuthUser | null,
    clientAddress: string,
  ): Promise<Verified> {
    const checked = await this.codes.check(email, 'verify', code, clientAddress);
    const account = await this.users.findCredentials(email);
    if (!account) throw new AppError(ErrorCode.UNAUTHENTICATED, '验证码错误或已失效');
    const own = signedIn?.id === account.id;
    if (!own) await this.codes.secondFactor(account, twoFactorCode, clientAddress);
    await this.codes.redeem(checked, async (manager) => {
      // A disabled account's address is not marked proven, and its code stays unused.
      if (await this.emailAccounts.lockDisabled(account.id, manager)) {
        throw new AppError(ErrorCode.FORBIDDEN, ACCOUNT_DISABLED_MESSAGE);
      }
      await this.emailAccounts.markVerified(account.id, manager);
    });
    return { user: (await this.users.findById(account.id))!, signIn: !own };
  }
}
