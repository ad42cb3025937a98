import { Injectable } from '@nestjs/common';
import { AccountsService } from './accounts/accounts.service.js';
import type { AuthUser } from './auth-context.js';
import { EmailVerificationService } from './email/email-verification.service.js';

/** A registration either made a signed-in account, or (e-mail configured) mailed a code and made nothing visible. */
export type Registration = { user: AuthUser } | { verificationRequired: true };

/**
 * Registration with a password. Without e-mail the account is made at once and the caller signs
 * it in; with SMTP_URL the answer is the same whether or not the address already had an account,
 * and the mailbox proves it (EmailVerificationService).
 */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly verification: EmailVerificationService,
  ) {}

  async register(email: string, password: string, clientAddress: string, invite?: string): Promise<Registration> {
    if (this.verification.enabled) {
      await this.verification.register(email, password, clientAddress, invite);
      return { verificationRequired: true };
    }
    return { user: await this.accounts.register(email, password, invite) };
  }
}
