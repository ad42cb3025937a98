import { Global, Module } from '@nestjs/common';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { QueueModule } from '../queue/queue.module.js';
import { MetricsAccess } from './metrics-access.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsListener } from './metrics-listener.js';
import { MetricsSources } from './metrics-sources.js';
import { Metrics } from './metrics.js';

/**
 * The Prometheus registry, `GET /metrics` on api processes and the worker's metrics listener.
 * Global on purpose: features record into `Metrics` (views, scans, deliveries, queue waits) the
 * way they log, and importing it into each one would say nothing about the feature.
 */
@Global()
@Module({
  imports: [QueueModule],
  controllers: [MetricsController],
  providers: [
    Metrics,
    MetricsSources,
    MetricsListener,
    { provide: MetricsAccess, inject: [RUNTIME], useFactory: (runtime: Runtime) => new MetricsAccess(runtime.env.METRICS_TOKEN) },
  ],
  exports: [Metrics],
})
export class MetricsModule {}
