import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AppError } from '../common/app-error.js';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto.js';
import { MetricsAccess } from './metrics-access.js';
import { Metrics } from './metrics.js';

@ApiTags('operations')
@ApiBearerAuth('metricsToken')
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(MetricsAccess) private readonly access: MetricsAccess,
  ) {}

  @Get('metrics')
  @ApiOperation({
    summary: 'Prometheus metrics of this process',
    description:
      'Answers only `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN, and for a missing or wrong token, ' +
      'the route answers 404 like any unknown path, so a scanner learns nothing about the instance.',
  })
  @ApiOkResponse({ description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: 'metrics are off, or the token is missing or wrong' })
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    if (!this.access.allows(authorization)) throw AppError.notFound();
    const { contentType, body } = await this.metrics.render();
    reply.header('Content-Type', contentType).header('Cache-Control', 'no-store');
    return body;
  }
}
