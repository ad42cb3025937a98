import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Request and job durations run from a millisecond (a cached view) to tens of seconds (a slow scan). */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Queue waits run from the next poll (milliseconds) to a backlog of minutes. */
const WAIT_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900];

/** What a view of a share came to: admitted (counted) or the gate's reason for stopping it. */
export type ViewOutcome = { admitted: true } | { admitted: false; reason: string };

/** Pulls a gauge's current value at scrape time (queue depth, pool use): set by its owner. */
export type GaugeSource = (gauge: Gauge) => Promise<void> | void;

/**
 * The process's Prometheus registry and every metric the service exports. Labels are bounded
 * sets (route templates, outcomes, queue names): a raw URL never becomes a label, because share
 * tokens are in viewer paths and every distinct value is a new series kept in memory.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  private readonly requestDuration = new Histogram({
    name: 'sharedown_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  private readonly views = new Counter({
    name: 'sharedown_share_views_total',
    help: 'Share views by outcome (admitted or refused) and the reason the gate gave for a refusal',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });

  private readonly scans = new Histogram({
    name: 'sharedown_scan_duration_seconds',
    help: 'Antivirus scans by result (clean, infected, error)',
    labelNames: ['result'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  private readonly queueWait = new Histogram({
    name: 'sharedown_queue_wait_seconds',
    help: 'Time a job waited in its queue before a worker took it',
    labelNames: ['queue'] as const,
    buckets: WAIT_BUCKETS,
    registers: [this.registry],
  });

  private readonly jobs = new Counter({
    name: 'sharedown_queue_jobs_total',
    help: 'Jobs this process ran, by queue and outcome (completed or failed)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly deliveries = new Histogram({
    name: 'sharedown_webhook_delivery_duration_seconds',
    help: 'Webhook deliveries by outcome (success, failed, timeout, error) and their latency',
    labelNames: ['outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  private readonly reportsFiled = new Counter({
    name: 'sharedown_abuse_reports_filed_total',
    help: 'Abuse reports visitors filed against share links',
    registers: [this.registry],
  });

  private readonly reportsResolved = new Counter({
    name: 'sharedown_abuse_reports_resolved_total',
    help: "Abuse reports administrators resolved, by action (dismiss, disable_share, disable_owner); a report closed with its share's counts",
    labelNames: ['action'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.requestDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  recordView(outcome: ViewOutcome): void {
    if (outcome.admitted) this.views.inc({ outcome: 'admitted', reason: 'none' });
    else this.views.inc({ outcome: 'refused', reason: outcome.reason });
  }

  observeScan(result: 'clean' | 'infected' | 'error', seconds: number): void {
    this.scans.observe({ result }, seconds);
  }

  observeQueueWait(queue: string, seconds: number): void {
    this.queueWait.observe({ queue }, Math.max(0, seconds));
  }

  countJob(queue: string, outcome: 'completed' | 'failed'): void {
    this.jobs.inc({ queue, outcome });
  }

  observeDelivery(outcome: string, seconds: number): void {
    this.deliveries.observe({ outcome }, seconds);
  }

  countReportFiled(): void {
    this.reportsFiled.inc();
  }

  countReportsResolved(action: 'dismiss' | 'disable_share' | 'disable_owner', reports: number): void {
    this.reportsResolved.inc({ action }, reports);
  }

  /** A gauge whose value its owner reads at scrape time (queue depth, database pool). */
  gauge(name: string, help: string, labelNames: string[], source: GaugeSource): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        await source(this);
      },
    });
  }

  /** The exposition text, and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
