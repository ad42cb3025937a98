import { Inject, Injectable } from '@nestjs/common';
import { CODE_TTL_MINUTES, EmailCodesRepository } from '../auth/email/email-codes.repository.js';
import { RegistrationPolicy } from '../auth/accounts/registration-policy.js';
import { UsersRepository } from '../auth/accounts/users.repository.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { NotificationsRepository } from '../notifications/notifications.repository.js';
import { codeMessage, registrationAttemptMessage, type MailMessage } from './mail-messages.js';
import { notificationMessage, visitSummaryMessage } from './notification-messages.js';
import { invitationMessage } from './invitation-message.js';
import { MailQueue, type MailJob } from './mail-queue.js';
import { NotificationMailCap } from './notification-mail-cap.js';

/** A mail to send, and what to record once it went out. */
export interface ComposedMail {
  to: string;
  message: MailMessage;
  sent?: () => Promise<void>;
}

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
    private readonly cap: NotificationMailCap,
    private readonly queue: MailQueue,
  ) {}

  async compose(job: MailJob): Promise<ComposedMail | null> {
    const env = this.runtime.env;
    if (job.kind === 'notification') return this.notification(job.id);
    if (job.kind === 'notification-summary') {
      const folded = await this.notifications.foldedVisits(job.shareId);
      if (!folded) return null;
      return {
        to: folded.email,
        message: visitSummaryMessage(folded, env.PUBLIC_URL),
        sent: () => this.notifications.markSummarized(folded.ids),
      };
    }
    if (job.kind === 'workspace-invitation') return { to: job.email, message: invitationMessage(job, env.PUBLIC_URL) };
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

  private async notification(id: string): Promise<ComposedMail | null> {
    // Gone (retention) or an owner without a proven address: nothing to send.
    const found = await this.notifications.forMail(id);
    if (!found) return null;
    const { notification } = found;
    // Only `every` shares mail each visit; a first visit and a digest are one mail by nature.
    if (notification.kind === 'visit' && notification.shareId && !(await this.cap.admit(found.userId, notification.shareId))) {
      const shareId = notification.shareId;
      if ((await this.notifications.foldMail(notification.id)) && !(await this.queue.summaryPending(shareId))) {
        await this.queue.scheduleSummary(shareId, await this.cap.summaryDelayMs(shareId));
      }
      return null;
    }
    return {
      to: found.email,
      message: notificationMessage(notification, this.runtime.env.PUBLIC_URL, this.runtime.env.RENDER_URL),
    };
  }
}
