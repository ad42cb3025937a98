import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhookEventsService } from './webhook-events.service.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookSubscriptionCache } from './webhook-subscription-cache.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';
import { AuditModule } from '../audit/audit.module.js';

/** Outbound webhooks: console management, event emission (the viewer emits) and delivery. */
@Module({
  imports: [AuthModule, AuditModule, QueueModule],
  controllers: [WebhooksController],
  providers: [
    WebhookEventsService,
    WebhookSubscriptionCache,
    WebhooksService,
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhookSender,
    WebhookDeliveryWorker,
  ],
  exports: [WebhookEventsService],
})
export class WebhooksModule {}
