import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from '../openapi/public-route.decorator.js';
import { QueueService } from '../queue/queue.service.js';
import { HealthRepository } from './health.repository.js';

class HealthDto {
  @ApiProperty() ok: boolean;
  @ApiProperty({ enum: ['up', 'down'] }) database: 'up' | 'down';
  @ApiProperty({ enum: ['up', 'down'] }) queue: 'up' | 'down';
  @ApiProperty({ enum: ['redis', 'postgres'] }) queueBackend: 'redis' | 'postgres';
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly database: HealthRepository,
    private readonly queues: QueueService,
  ) {}

  @Get('healthz')
  @PublicRoute()
  @ApiOperation({ summary: 'Whether the service, its database and its queue answer' })
  @ApiOkResponse({ type: HealthDto, description: 'everything is up' })
  @ApiResponse({ status: 503, type: HealthDto, description: 'a dependency is down: ok false' })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthDto> {
    const [database, queue] = await Promise.all([this.database.databaseAnswers(), this.queues.reachable()]);
    const ok = database && queue;
    if (!ok) reply.status(503);
    return { ok, database: database ? 'up' : 'down', queue: queue ? 'up' : 'down', queueBackend: this.queues.backend };
  }
}
