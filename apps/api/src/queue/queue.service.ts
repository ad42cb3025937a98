import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker, createPostgresBackend, type Processor, type WorkerOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { reconnectSoon } from '../common/redis-reconnect.js';
import { withTimeout } from '../common/with-timeout.js';
import { CONNECT_TIMEOUT_MS } from '../database/data-source.js';
import { Metrics } from '../metrics/metrics.js';
import { QueueName } from './queue-names.js';

const PRODUCER_COMMAND_TIMEOUT_MS = 2_000;

/**
 * Builds BullMQ queues and workers on the configured backend: Redis when REDIS_URL is
 * set, otherwise BullMQ's PostgreSQL backend in the service's own database. Closing
 * the service drains in-flight jobs before the connections go.
 */
@Injectable()
export class QueueService implements OnApplicationShutdown {
  private readonly logger = new Logger('Queue');
  private readonly queues = new Map<QueueName, Queue>();
  private readonly workers: Worker[] = [];
  private workerRedis?: Redis;
  private producerRedis?: Redis;

  constructor(
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly metrics: Metrics,
  ) {}

  get backend(): 'redis' | 'postgres' {
    return this.runtime.env.REDIS_URL ? 'redis' : 'postgres';
  }

  /**
   * Workers wait out a Redis restart: BullMQ requires maxRetriesPerRequest null on their
   * connections, so their commands stay queued until Redis is back.
   */
  private workerConnection(): Redis {
    this.workerRedis ??= new Redis(this.runtime.env.REDIS_URL!, { maxRetriesPerRequest: null, lazyConnect: false });
    return this.workerRedis;
  }

  /**
   * Requests add jobs and read counts on a connection of their own that fails at once while
   * Redis is down (no offline queue, one retry, a bounded wait for each answer), so an upload
   * or a health check answers instead of waiting for Redis to return.
   */
  private producerConnection(): Redis {
    this.producerRedis ??= new Redis(this.runtime.env.REDIS_URL!, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
      retryStrategy: reconnectSoon,
      lazyConnect: false,
    });
    return this.producerRedis;
  }

  private postgresConnection() {
    return {
      connectionString: this.runtime.databaseUrl,
      migrate: true,
      schema: 'bullmq',
      max: 5,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    };
  }

  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue =
        this.backend === 'redis'
          ? new Queue(name, { connection: this.producerConnection() })
          : new Queue(name, { connection: this.postgresConnection() } as never, createPostgresBackend as never);
      queue.on('error', (error: Error) => this.logger.warn(`queue ${name}: ${error.message}`));
      this.queues.set(name, queue);
      // A queue remembers a failed start for good (BullMQ keeps the rejected promise): one first
      // used while its backend was down is replaced by a fresh one at the next use.
      const opened = queue;
      opened.waitUntilReady().catch(() => {
        if (this.queues.get(name) === opened) this.queues.delete(name);
        void opened.close().catch(() => undefined);
      });
    }
    return queue;
  }

  worker<T>(name: QueueName, processor: Processor<T>, options: Partial<WorkerOptions> = {}): Worker<T> {
    const base = { concurrency: 4, ...options };
    const measured: Processor<T> = (job, token, signal) => {
      // From when the job became runnable (after its delay) to now, when a worker took it.
      this.metrics.observeQueueWait(name, (Date.now() - job.timestamp - (job.delay ?? 0)) / 1000);
      return processor(job, token, signal);
    };
    const worker =
      this.backend === 'redis'
        ? new Worker<T>(name, measured, { ...base, connection: this.workerConnection() })
        : new Worker<T>(
            name,
            measured,
            { ...base, connection: this.postgresConnection() } as never,
            createPostgresBackend as never,
          );
    worker.on('error', (error: Error) => this.logger.warn(`worker ${name}: ${error.message}`));
    worker.on('completed', () => this.metrics.countJob(name, 'completed'));
    worker.on('failed', () => this.metrics.countJob(name, 'failed'));
    this.workers.push(worker as Worker);
    return worker;
  }

  /** True when the queue backend answers within two seconds. */
  async reachable(): Promise<boolean> {
    return withTimeout(this.queue(QueueName.scan).getJobCounts('waiting'), 2000).then(
      () => true,
      () => false,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    // Workers first: close() waits for the jobs they are running to finish.
    await Promise.allSettled(this.workers.map((worker) => worker.close()));
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    await Promise.allSettled([this.workerRedis, this.producerRedis].map((redis) => redis?.quit()));
  }
}
