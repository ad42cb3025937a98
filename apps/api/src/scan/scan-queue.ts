import { Injectable, Logger } from '@nestjs/common';
import type { JobsOptions } from 'bullmq';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';

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
export class ScanQueue {
  private readonly logger = new Logger('ScanQueue');

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
   * Enqueues after a commit. A queue outage must not fail an upload that is already stored:
   * the version stays PENDING and the sweeper enqueues it later.
   */
  async enqueueSafely(versionIds: readonly string[]): Promise<void> {
    try {
      await this.enqueue(versionIds);
    } catch (error) {
      this.logger.warn(
        `could not enqueue scans for ${versionIds.join(', ')} (the sweeper will retry): ${error instanceof Error ? error.message : error}`,
      );
    }
  }
}
