import { Module } from '@nestjs/common';
import { MailComposer } from '../../mail/mail-composer.js';
import { NotificationMailCap } from '../../mail/notification-mail-cap.js';
import { MailQueue } from '../../mail/mail-queue.js';
import { MailTransport } from '../../mail/mail-transport.js';
import { MailWorker } from '../../mail/mail.worker.js';
import { NotificationsModule } from '../../notifications/notifications.module.js';
import { QueueModule } from '../../queue/queue.module.js';
import { RateLimitModule } from '../../rate-limit/rate-limit.module.js';
import { AuthModule } from '../auth.module.js';
import { EmailAccountsRepository } from './email-accounts.repository.js';
import { EmailConfiguredGuard } from './email-configured.guard.js';
import { EmailCodeThrottle } from './email-code-throttle.js';
import { EmailCodesRepository } from './email-codes.repository.js';
import { EmailCodesService } from './email-codes.service.js';
import { EmailController } from './email.controller.js';
import { EmailSignInService } from './email-sign-in.service.js';
import { EmailVerificationService } from './email-verification.service.js';
import { PasswordResetService } from './password-reset.service.js';

/**
 * E-mail (SMTP_URL, MAIL_FROM): one-time codes for sign-in, proving an address and resetting a
 * password, queued by the api and sent by the worker. Without SMTP_URL its routes answer 404 and
 * nothing is queued. Registration (SignInModule) and the viewer's sign-in page import it.
 */
@Module({
  // Notifications: the worker mails them, reading each through its repository.
  imports: [AuthModule, NotificationsModule, QueueModule, RateLimitModule],
  controllers: [EmailController],
  providers: [
    MailTransport,
    MailQueue,
    MailComposer,
    NotificationMailCap,
    MailWorker,
    EmailConfiguredGuard,
    EmailCodesRepository,
    EmailAccountsRepository,
    EmailCodeThrottle,
    EmailCodesService,
    EmailSignInService,
    EmailVerificationService,
    PasswordResetService,
  ],
  exports: [EmailSignInService, EmailVerificationService],
})
export class EmailModule {}
