import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';
import { deliveryJobId, type EmittedWebhookEvent, type WebhookDeliveryJob } from './webhook-event.js';
import { WebhookSubscriptionCache, type ActiveSubscription } from './webhook-subscription-cache.js';

/** Job options of every delivery: one attempt only, the spec forbids automatic retries. */
export const DELIVERY_JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 1000 },
} as const;

/** Turns share events into queued webhook deliveries, off the request path. */
@Injectable()
export class WebhookEventsService {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly subscriptions: WebhookSubscriptionCache,
    private readonly queues: QueueService,
  ) {}

  /**
   * Enqueues one event for every active webhook of `userId` subscribed to it; resolves after the enqueue.
   * Does no queue write when there is none. Delivery is best-effort, so a failing queue is logged and
   * never breaks the caller's request.
   */
  async emit(userId: string, event: EmittedWebhookEvent, data: Record<string, unknown>): Promise<void> {
    try {
      const subscriptions = await this.subscriptions.get(userId);
      const wanted = (subscription: ActiveSubscription) => subscription.events.includes(event);
      // Every share view asks; most owners subscribe to nothing: no array for them.
      if (!subscriptions.some(wanted)) return;
      const targets = subscriptions.filter(wanted);
      // A shared workspace's events name it; a personal workspace's keep the documented data exactly.
      const named = targets[0]!.workspace ? { ...data, workspaceId: userId } : data;
      await this.queues.queue(QueueName.webhooks).addBulk(
        this.jobs(
          targets.map((t) => t.webhookId),
          event,
          named,
        ),
      );
    } catch (error) {
      this.logger.warn(`could not queue ${event} for user ${userId}: ${(error as Error).message}`);
    }
  }

  private jobs(webhookIds: string[], event: EmittedWebhookEvent, data: Record<string, unknown>) {
    const eventId = randomUUID();
    const timestamp = new Date().toISOString();
    return webhookIds.map((webhookId) => {
      const job: WebhookDeliveryJob = { webhookId, eventId, deliveryId: randomUUID(), event, timestamp, data };
      return { name: event, data: job, opts: { ...DELIVERY_JOB_OPTIONS, jobId: deliveryJobId(eventId, webhookId) } };
    });
  }
}
