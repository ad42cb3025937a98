import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Job } from 'bullmq';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { ChangeFeed } from '../database/change-feed.js';
import { Metrics } from '../metrics/metrics.js';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';
import { ScanQueue, type ScanJobData } from './scan-queue.js';
import { ScanSettlements } from './scan-settlements.js';
import { ScanRepository, type ScanVerdict } from './scan.repository.js';
import { SCANNER, type Scanner } from './scanner.js';

export const SWEEP_INTERVAL_MS = 30_000;
const SWEEP_BATCH = 500;

/**
 * Scans file versions (ROLE all or worker). A version is PENDING until a scan settles it
 * as CLEAN or INFECTED; an unavailable scanner marks it SCAN_ERROR and the job is retried.
 * The sweeper re-enqueues what a lost job or a long outage left behind, so no version
 * stays PENDING or SCAN_ERROR while the scanner is up.
 */
@Injectable()
export class ScanWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ScanWorker');
  private sweeper?: NodeJS.Timeout;
  private sweeping = false;

  constructor(
    private readonly versions: ScanRepository,
    private readonly queues: QueueService,
    private readonly scanQueue: ScanQueue,
    @Inject(SCANNER) private readonly scanner: Scanner,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly metrics: Metrics,
    private readonly feed: ChangeFeed,
    private readonly settlements: ScanSettlements,
  ) {}

  onApplicationBootstrap(): void {
    if (this.runtime.env.ROLE === 'api') return;
    // A short lock (renewed while a scan runs) lets another worker take over a job whose
    // worker died within about half a minute instead of a minute or more.
    this.queues.worker<ScanJobData>(QueueName.scan, (job) => this.process(job), {
      concurrency: 4,
      lockDuration: 15_000,
      stalledInterval: 10_000,
    });
    this.logger.log(`scanning uploads with the ${this.scanner.name} scanner`);
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  async process(job: Job<ScanJobData>): Promise<void> {
    const { versionId } = job.data;
    const version = await this.versions.findVersion(versionId);
    // Purged meanwhile, or settled by an earlier run of a repeated job.
    if (!version || version.scanStatus === 'CLEAN' || version.scanStatus === 'INFECTED') return;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const verdict = await this.scanner.scan(Buffer.from(version.content, 'utf8'));
      this.metrics.observeScan(verdict.infected ? 'infected' : 'clean', seconds());
      await this.settle(versionId, verdict.infected ? 'INFECTED' : 'CLEAN', verdict.infected ? verdict.signature : null);
      if (verdict.infected) this.logger.warn(`version ${versionId} is infected (${verdict.signature}): quarantined`);
    } catch (error) {
      this.metrics.observeScan('error', seconds());
      await this.settle(versionId, 'SCAN_ERROR', null);
      this.logger.warn(`scan of version ${versionId} failed (attempt ${job.attemptsMade + 1}): ${(error as Error).message}`);
      throw error;
    }
  }

  private async settle(versionId: string, status: ScanVerdict, result: string | null): Promise<void> {
    const owner = await this.versions.settle(versionId, status, result);
    // The version a link serves may have changed: a visit to this process must show it at once.
    if (owner) this.feed.heardHere('shares', owner);
    if (status === 'CLEAN' || status === 'INFECTED') await this.settlements.settled(versionId, status);
  }

  /** Re-enqueues versions whose job was lost (PENDING for over a minute) or gave up (SCAN_ERROR). */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      const ids = await this.versions.listUnfinished(SWEEP_BATCH);
      if (ids.length) {
        await this.scanQueue.enqueue(ids);
        this.logger.log(`re-enqueued ${ids.length} unfinished scan(s)`);
      }
      return ids.length;
    } catch (error) {
      this.logger.warn(`scan sweep failed: ${(error as Error).message}`);
      return 0;
    } finally {
      this.sweeping = false;
    }
  }
}
