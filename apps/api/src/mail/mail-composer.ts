import { Inject, Injectable } from '@nestjs/common';
import { CODE_TTL_MINUTES, EmailCodesRepository } from '../auth/email/email-codes.repository.js';
import { RegistrationPolicy } from '../auth/registration-policy.js';
import { UsersRepository } from '../auth/users.repository.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { NotificationsRepository } from '../notifications/notifications.repository.js';
import { codeMessage, registrationAttemptMessage, type MailMessage } from './mail-messages.js';
import { notificationMessage } from './notification-messages.js';
import type { MailJob } from './mail-queue.js';

/**
 * What a queued mail becomes, decided in the worker where nobody is waiting on it: whether the
 * address gets anything at all, and the code (issued here, never queued). Null sends nothing.
 */
@Injectable()
export class MailComposer {
  constructor(
    private readonly users: UsersRepository,
    private readonly codes: EmailCodesRepository,
    private readonly notifications: NotificationsRepository,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly registration: RegistrationPolicy,
  ) {}

  async compose(job: MailJob): Promise<{ to: string; message: MailMessage } | null> {
    const env = this.runtime.env;
    if (job.kind === 'notification') {
      // Gone (retention) or an owner without a proven address: nothing to send.
      const found = await this.notifications.forMail(job.id);
      return found ? { to: found.email, message: notificationMessage(found.notification, env.PUBLIC_URL) } : null;
    }
    const account = await this.users.findCredentials(job.email);
    if (job.kind === 'registration-attempt') {
      return account ? { to: account.email, message: registrationAttemptMessage(env.PUBLIC_URL) } : null;
    }
    switch (job.purpose) {
      case 'sign-in':
        // An unknown address gets a code only where a first sign-in may create its account.
        if (!account && !(await this.registration.openToNewAccounts())) return null;
        break;
      case 'verify':
        if (!account || account.emailVerified) return null;
        break;
      case 'reset':
        if (!account || !env.PASSWORD_LOGIN) return null;
        break;
    }
    const to = account?.email ?? job.email.trim();
    const code = await this.codes.issue(to, job.purpose);
    return { to, message: codeMessage(job.purpose, code, env.PUBLIC_URL, CODE_TTL_MINUTES) };
  }
}
