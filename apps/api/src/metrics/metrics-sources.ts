import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { withTimeout } from '../common/with-timeout.js';
import { QueueName } from '../queue/queue-names.js';
import { QueueService } from '../queue/queue.service.js';
import { Metrics } from './metrics.js';

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
/** A scrape during a queue outage answers without the depth rather than hanging. */
const QUEUE_COUNT_TIMEOUT_MS = 2000;

/** Gauges read at scrape time: the depth of every queue and the use of the database pool. */
@Injectable()
export class MetricsSources implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly queues: QueueService,
    private readonly db: DataSource,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'sharedown_queue_jobs',
      'Jobs in each queue by state (waiting, active, delayed, failed)',
      ['queue', 'state'],
      async (gauge) => {
        gauge.reset();
        await Promise.all(
          Object.values(QueueName).map(async (queue) => {
            const counts = await withTimeout(this.queues.queue(queue).getJobCounts(...JOB_STATES), QUEUE_COUNT_TIMEOUT_MS).catch(
              () => null,
            );
            if (!counts) return;
            for (const state of JOB_STATES) gauge.set({ queue, state }, counts[state] ?? 0);
          }),
        );
      },
    );
    this.metrics.gauge(
      'sharedown_db_pool_connections',
      'Connections of the database pool: total, idle, and requests waiting for one',
      ['state'],
      (gauge) => {
        const pool = this.pool();
        if (!pool) return;
        gauge.set({ state: 'total' }, pool.totalCount);
        gauge.set({ state: 'idle' }, pool.idleCount);
        gauge.set({ state: 'waiting' }, pool.waitingCount);
      },
    );
  }

  private pool(): Pool | undefined {
    return (this.db.driver as unknown as { master?: Pool }).master;
  }
}
