import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module.js';
import { HealthController } from './health.controller.js';
import { HealthRepository } from './health.repository.js';

/** `GET /healthz`: whether the database and the queue answer. */
@Module({ imports: [QueueModule], controllers: [HealthController], providers: [HealthRepository] })
export class HealthModule {}
