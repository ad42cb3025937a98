import { Global, Module } from '@nestjs/common';
import { MailComposer } from '../../mail/mail-composer.js';
import { MailQueue } from '../../mail/mail-queue.js';
import { MailTransport } from '../../mail/mail-transport.js';
import { MailWorker } from '../../mail/mail.worker.js';
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
 * nothing is queued. Global: registration and the viewer's sign-in page use it.
 */
@Global()
@Module({
  controllers: [EmailController],
  providers: [
    MailTransport,
    MailQueue,
    MailComposer,
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
