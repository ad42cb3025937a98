import { Module } from '@nestjs/common';
import { QueueService } from './queue.service.js';

/** BullMQ queues and workers, on Redis (REDIS_URL) or on PostgreSQL. */
@Module({ providers: [QueueService], exports: [QueueService] })
export class QueueModule {}
