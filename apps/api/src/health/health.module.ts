import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module.js';
import { HealthController } from './health.controller.js';

/** `GET /healthz`: whether the database and the queue answer. */
@Module({ imports: [QueueModule], controllers: [HealthController] })
export class HealthModule {}
