import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppError } from '../common/app-error.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { MailQueue } from '../mail/mail-queue.js';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';
import { NotificationsRepository } from './notifications.repository.js';

/** A job on the `notifications` queue: write the digest of one UTC day (YYYY-MM-DD). */
export interface DigestJob {
  day: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Visits are logged a moment after their answer: a day's digest is written only once the day
 * has been over for this long, so the last visits before midnight are in it.
 */
export const DIGEST_DELAY_MS = 10 * 60_000;

/** The UTC day whose digest is due at `now`: the day before, once it has been over for DIGEST_DELAY_MS. */
export function dueDigestDay(now: Date): string {
  return new Date(now.getTime() - DIGEST_DELAY_MS - 86_400_000).toISOString().slice(0, 10);
}

/**
 * Daily digests, written by the worker: housekeeping asks for the due day on each round, and a
 * `digest` job on the `notifications` queue (`{ day: 'YYYY-MM-DD' }`) writes any given day, to
 * catch up after an outage. A day is written at most once per owner whoever runs it, and each
 * digest written is queued for e-mail.
 */
@Injectable()
export class NotificationDigests implements OnApplicationBootstrap {
  private readonly logger = new Logger('NotificationDigests');

  constructor(
    private readonly repository: NotificationsRepository,
    private readonly mail: MailQueue,
    private readonly queues: QueueService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  onApplicationBootstrap(): void {
    if (this.runtime.env.ROLE === 'api') return;
    this.queues.worker<DigestJob>(QueueName.notifications, (job: Job<DigestJob>) => this.write(job.data.day), { concurrency: 2 });
  }

  /** Writes the digests of `day`; answers how many were written now. */
  async write(day: string): Promise<number> {
    if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw AppError.validation('day 必须是 YYYY-MM-DD', 'day');
    const ids = await this.repository.writeDigest(day);
    try {
      await this.mail.enqueueNotifications(ids);
    } catch (error) {
      this.logger.warn(`digest mail of ${day} not queued: ${error instanceof Error ? error.message : String(error)}`);
    }
    return ids.length;
  }

  /** The digests due now (the previous UTC day's). */
  writeDue(now = new Date()): Promise<number> {
    return this.write(dueDigestDay(now));
  }
}
