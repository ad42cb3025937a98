import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { QueueService } from '../queue/queue.service.js';

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
    private readonly db: DataSource,
    private readonly queues: QueueService,
  ) {}

  @Get('healthz')
  @ApiOkResponse({ type: HealthDto, description: '503 with ok false when a dependency is down' })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthDto> {
    const [database, queue] = await Promise.all([
      this.db.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      this.queues.reachable(),
    ]);
    const ok = database && queue;
    if (!ok) reply.status(503);
    return { ok, database: database ? 'up' : 'down', queue: queue ? 'up' : 'down', queueBackend: this.queues.backend };
  }
}
