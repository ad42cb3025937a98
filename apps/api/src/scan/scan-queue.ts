import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { JobsOptions } from 'bullmq';
import { withTimeout } from '../common/with-timeout.js';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';

const ENQUEUE_TIMEOUT_MS = 3_000;
const RETRY_MS = 2_000;
const RETRY_BATCH = 500;
/** Beyond this many, the worker's sweeper alone finds them (it reads PENDING versions from the database). */
const MAX_UNQUEUED = 10_000;

export interface ScanJobData {
  versionId: string;
}

/**
 * Retries for an unreachable scanner: 1 s, 2 s, 4 s … then the sweeper takes over with a
 * fresh job every half minute, so an outage of any length ends in a rescan.
 */
export const SCAN_JOB_OPTIONS: JobsOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: true,
};

/** Puts file versions on the `scan` queue. The job id is the version id, so repeats collapse. */
@Injectable()
export class ScanQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('ScanQueue');
  /** Stored versions whose job could not be queued yet (the queue's backend was down). */
  private readonly unqueued = new Set<string>();
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly queues: QueueService) {}

  async enqueue(versionIds: readonly string[]): Promise<void> {
    if (!versionIds.length) return;
    await this.queues.queue(QueueName.scan).addBulk(
      versionIds.map((versionId) => ({
        name: 'scan',
        data: { versionId } satisfies ScanJobData,
        opts: { ...SCAN_JOB_OPTIONS, jobId: versionId },
      })),
    );
  }

  /**
   * Enqueues after a commit. A queue outage must not fail an upload that is already stored: the
   * version stays PENDING, and this process tries again every few seconds, so its scan starts
   * soon after the queue is back (the worker's sweeper is the backstop, a minute later).
   */
  async enqueueSafely(versionIds: readonly string[]): Promise<void> {
    try {
      // The upload is answered after this: a queue that does not answer must not hold it up.
      await withTimeout(this.enqueue(versionIds), ENQUEUE_TIMEOUT_MS);
    } catch (error) {
      this.logger.warn(
        `could not enqueue scans for ${versionIds.join(', ')} (retrying): ${error instanceof Error ? error.message : error}`,
      );
      for (const id of versionIds) if (this.unqueued.size < MAX_UNQUEUED) this.unqueued.add(id);
      this.retryLater();
    }
  }

  private retryLater(): void {
    if (this.retry || !this.unqueued.size) return;
    this.retry = setTimeout(() => void this.retryUnqueued(), RETRY_MS);
    this.retry.unref();
  }

  private async retryUnqueued(): Promise<void> {
    const ids = [...this.unqueued].slice(0, RETRY_BATCH);
    try {
      await withTimeout(this.enqueue(ids), ENQUEUE_TIMEOUT_MS);
      for (const id of ids) this.unqueued.delete(id);
      this.logger.log(`enqueued ${ids.length} scan(s) held back by a queue outage`);
    } catch {
      // Still down: the next try is a few seconds away.
    }
    this.retry = undefined;
    this.retryLater();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
    this.unqueued.clear();
  }
}
