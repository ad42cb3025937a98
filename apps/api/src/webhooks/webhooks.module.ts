import { Global, Module } from '@nestjs/common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhookEventsService } from './webhook-events.service.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookSubscriptionCache } from './webhook-subscription-cache.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/** Outbound webhooks: console management, event emission (global, used by the viewer) and delivery. */
@Global()
@Module({
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
