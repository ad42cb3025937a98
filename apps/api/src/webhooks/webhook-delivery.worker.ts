import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { Metrics } from '../metrics/metrics.js';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import type { WebhookDeliveryJob } from './webhook-event.js';
import { WebhookSender, type DeliveryOutcome } from './webhook-sender.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** Deliveries wait on remote servers, not on CPU: many may be in flight so a slow receiver blocks no one. */
const DELIVERY_CONCURRENCY = 32;
/**
 * A delivery holds its job for at most about 5 s, so a short lock is safe (it is renewed at half
 * its length) and lets another worker settle a dead worker's job sooner.
 */
const LOCK_MS = 10_000;

export type DeliveryResult = 'delivered' | 'skipped' | 'duplicate';

/**
 * Runs queued deliveries. Each (webhook, event) is claimed in the audit log before the request
 * goes out, so it is sent at most once: a re-run of the job (a crashed worker's job handed to
 * another) finds the claim and never sends again.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly queues: QueueService,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    if (this.runtime.env.ROLE === 'api') return;
    this.queues.worker<WebhookDeliveryJob>(QueueName.webhooks, (job: Job<WebhookDeliveryJob>) => this.deliver(job.data), {
      concurrency: DELIVERY_CONCURRENCY,
      lockDuration: LOCK_MS,
      stalledInterval: LOCK_MS,
    });
  }

  async deliver(job: WebhookDeliveryJob): Promise<DeliveryResult> {
    const webhook = await this.webhooks.findTarget(job.webhookId);
    // Deleted or paused after the event was queued: the owner no longer wants it.
    if (!webhook || !webhook.active || !webhook.events.includes(job.event)) return 'skipped';

    const claimed = await this.deliveries.claim(job);
    if (!claimed) {
      await this.deliveries.markInterrupted(job.webhookId, job.eventId);
      return 'duplicate';
    }
    const body = Buffer.from(JSON.stringify({ event: job.event, timestamp: job.timestamp, data: job.data }), 'utf8');
    const outcome: DeliveryOutcome = await this.sender.send({
      url: webhook.url,
      secret: webhook.secret,
      event: job.event,
      deliveryId: job.deliveryId,
      body,
    });
    this.metrics.observeDelivery(outcome.status, outcome.durationMs / 1000);
    await this.deliveries.complete(job.deliveryId, outcome);
    await this.deliveries.purge(webhook.id).catch((error: Error) => this.logger.warn(`purge of ${webhook.id}: ${error.message}`));
    return 'delivered';
  }
}
