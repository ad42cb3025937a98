import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { MailQueue } from '../mail/mail-queue.js';
import { QueueModule } from '../queue/queue.module.js';
import { NotificationDigests } from './notification-digests.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

/**
 * Notifications of share visits: the console's list and unread count, the daily digests (worker),
 * and their mail through the mail queue (EmailModule's worker sends it). The viewer's visit log
 * writes the visit notifications; housekeeping runs the due digest and the retention sweep.
 */
@Module({
  imports: [AuthModule, QueueModule],
  controllers: [NotificationsController],
  // MailQueue only puts jobs on the `mail` queue; it is stateless, so this module keeps its own.
  providers: [NotificationsRepository, NotificationsService, NotificationDigests, MailQueue],
  exports: [NotificationsRepository, NotificationDigests, MailQueue],
})
export class NotificationsModule {}
