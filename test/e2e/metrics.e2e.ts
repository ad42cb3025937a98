import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import {
  backend,
  createMachineDatabase,
  allocateRedisDb,
  createUser,
  freePort,
  startApp,
  type RunningApp,
  type TestUser,
} from '../support/app.js';
import { WebhookReceiver, shareMarkdown, type SharedDocument } from '../support/webhook-receiver.js';

const METRICS_TOKEN = 'metrics-token-for-the-e2e-suite-0123456789';

async function scrape(url: string, authorization?: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(url, { headers: authorization ? { authorization } : {} });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** The value of one sample line (`name{labels} value`), summed over lines that match every part. */
function sample(body: string, name: string, ...parts: string[]): number {
  let total = 0;
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (parts.every((part) => line.includes(part))) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Everything a scrape must never show, and the refusals every metrics listener gives. */
async function expectOnlyTheTokenOpens(url: string): Promise<string> {
  for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}x`, `Basic ${METRICS_TOKEN}`, 'Bearer ']) {
    const refused = await scrape(url, authorization);
    expect(refused.status, String(authorization)).toBe(404);
    expect(refused.body).not.toContain('sharedown_');
  }
  const scraped = await scrape(url, `Bearer ${METRICS_TOKEN}`);
  expect(scraped.status).toBe(200);
  expect(scraped.type).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(sample(scraped.body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  expect(scraped.body).toContain('nodejs_eventloop_lag_seconds');
  return scraped.body;
}

describe('GET /metrics on a single process (ROLE=all)', () => {
  let app: RunningApp;
  let plain: RunningApp;
  let alice: TestUser;
  let doc: SharedDocument;

  beforeAll(async () => {
    [app, plain] = await Promise.all([startApp({ env: { METRICS_TOKEN } }), startApp()]);
    alice = await createUser(app.baseUrl);
    doc = await shareMarkdown(app.baseUrl, alice, 'metrics.md');
  });
  afterAll(async () => {
    await Promise.all([app?.cleanup(), plain?.cleanup()]);
  });

  it('answers 404 without METRICS_TOKEN, whatever the request carries', async () => {
    expect((await scrape(`${plain.baseUrl}/metrics`)).status).toBe(404);
    expect((await scrape(`${plain.baseUrl}/metrics`, 'Bearer undefined')).status).toBe(404);
  });

  it('counts requests by route template, views by outcome, scans, queue and pool, and never a share token', async () => {
    const passwordShare = await unwrap(
      alice.api.POST('/api/v1/shares', { body: { fileId: doc.fileId, password: 'open sesame' } }),
    );
    expect((await fetch(doc.url)).status).toBe(200);
    expect((await fetch(doc.url)).status).toBe(200);
    expect((await fetch(passwordShare.url)).status).toBe(401);
    expect((await fetch(`${app.baseUrl}/s/nobody/does-not-exist-0123456789`)).status).toBe(404);

    const body = await expectOnlyTheTokenOpens(`${app.baseUrl}/metrics`);
    expect(body).not.toContain(doc.token);
    expect(body).not.toContain(passwordShare.share.token);
    expect(body).not.toContain(alice.segment);
    expect(
      sample(body, 'sharedown_http_request_duration_seconds_count', 'route="/s/:segment/:token"', 'status_code="200"'),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(body, 'sharedown_http_request_duration_seconds_count', 'route="/api/v1/files"', 'method="POST"')).toBe(1);
    expect(sample(body, 'sharedown_share_views_total', 'outcome="admitted"')).toBe(2);
    expect(sample(body, 'sharedown_share_views_total', 'outcome="refused"', 'reason="password"')).toBe(1);
    expect(sample(body, 'sharedown_share_views_total', 'outcome="refused"', 'reason="not-found"')).toBe(1);
    expect(sample(body, 'sharedown_scan_duration_seconds_count', 'result="clean"')).toBe(1);
    expect(sample(body, 'sharedown_queue_wait_seconds_count', 'queue="scan"')).toBe(1);
    expect(body).toMatch(/sharedown_queue_jobs\{queue="webhooks",state="waiting"\} \d+/);
    expect(sample(body, 'sharedown_db_pool_connections', 'state="total"')).toBeGreaterThan(0);
  });
});

// A worker beside an api replica needs a database they share: the services run of the suite.
describe.skipIf(backend !== 'services')('GET /metrics on an api replica and on a worker (METRICS_PORT)', () => {
  let api: RunningApp;
  let worker: RunningApp;
  let receiver: WebhookReceiver;
  let metricsPort: number;

  beforeAll(async () => {
    const [databaseUrl, redisUrl] = await Promise.all([createMachineDatabase(), allocateRedisDb()]);
    metricsPort = await freePort();
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, METRICS_TOKEN };
    api = await startApp({ role: 'api', env });
    [worker, receiver] = await Promise.all([
      startApp({ role: 'worker', env: { ...env, METRICS_PORT: String(metricsPort) } }),
      new WebhookReceiver().start(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([api?.cleanup(), worker?.cleanup(), receiver?.close()]);
  });

  it('the api counts requests and views, the worker scans, queue waits and webhook deliveries', async () => {
    const bob = await createUser(api.baseUrl);
    await unwrap(bob.console.POST('/api/webhooks', { body: { url: receiver.url('/hook'), events: ['share_visited'] as never } }));
    const doc = await shareMarkdown(api.baseUrl, bob, 'worker-metrics.md');
    expect((await fetch(doc.url)).status).toBe(200);
    await receiver.waitFor(1, { path: '/hook' });

    const apiBody = await expectOnlyTheTokenOpens(`${api.baseUrl}/metrics`);
    expect(sample(apiBody, 'sharedown_share_views_total', 'outcome="admitted"')).toBe(1);
    expect(sample(apiBody, 'sharedown_scan_duration_seconds_count')).toBe(0);

    const workerUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    expect((await scrape(`http://127.0.0.1:${metricsPort}/healthz`, `Bearer ${METRICS_TOKEN}`)).status).toBe(404);
    // The delivery's metric is recorded just before the worker settles the job: read until it shows.
    let workerBody = '';
    for (let i = 0; i < 50; i++) {
      workerBody = await expectOnlyTheTokenOpens(workerUrl);
      if (sample(workerBody, 'sharedown_webhook_delivery_duration_seconds_count', 'outcome="success"') === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sample(workerBody, 'sharedown_webhook_delivery_duration_seconds_count', 'outcome="success"')).toBe(1);
    expect(sample(workerBody, 'sharedown_scan_duration_seconds_count', 'result="clean"')).toBe(1);
    expect(sample(workerBody, 'sharedown_queue_wait_seconds_count', 'queue="scan"')).toBe(1);
    expect(sample(workerBody, 'sharedown_queue_wait_seconds_count', 'queue="webhooks"')).toBe(1);
    expect(sample(workerBody, 'sharedown_share_views_total')).toBe(0);
    expect(workerBody).toMatch(/sharedown_queue_jobs\{queue="scan",state="waiting"\} 0/);
  });
});
