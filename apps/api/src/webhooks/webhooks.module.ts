import { Global, Module } from '@nestjs/common';
import { WebhookEventsService } from './webhook-events.service.js';
import { WebhookSubscriptionCache } from './webhook-subscription-cache.js';

@Global()
@Module({
  providers: [WebhookEventsService, WebhookSubscriptionCache],
  exports: [WebhookEventsService],
})
export class WebhooksModule {}
