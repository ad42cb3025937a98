import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { drainQueues } from '../support/queues.js';
import { WebhookReceiver, shareMarkdown } from '../support/webhook-receiver.js';

const SESSION_SECRET = 'crash-test-session-secret-0123456789abcdef';

/**
 * An API process without workers, and worker processes on the same database and queue. A worker
 * killed while its request is at the receiver must not lead to a second delivery.
 */
describe('a delivery worker that dies mid-delivery', () => {
  let api: RunningApp;
  const workers: RunningApp[] = [];
  let alice: TestUser;
  let receiver: WebhookReceiver;

  const startWorker = async () => {
    const worker = await startApp({
      env: {
        SESSION_SECRET,
        DATABASE_URL: await api.databaseUrl(),
        ...(api.env.REDIS_URL ? { REDIS_URL: api.env.REDIS_URL } : {}),
      },
    });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver(() => ({ status: 200, body: 'late', delayMs: 4_000 })).start();
    api = await startApp({ env: { SESSION_SECRET, ROLE: 'api' } });
    alice = await createUser(api.baseUrl);
  });
  afterAll(async () => {
    for (const worker of workers) await worker.cleanup();
    await api?.cleanup();
    await receiver?.close();
  });

  it('never delivers the event a second time and records the interrupted attempt as error', async () => {
    const doomed = await startWorker();
    const doc = await shareMarkdown(api.baseUrl, alice, 'crash.md');
    const { webhook } = await unwrap(
      alice.console.POST('/api/webhooks', { body: { url: receiver.url('/hold'), events: ['share_visited'] } }),
    );

    const view = await fetch(doc.url, { redirect: 'manual' });
    await view.arrayBuffer();
    expect(view.status).toBe(200);
    const [first] = await receiver.waitFor(1, { path: '/hold' });
    await doomed.stop('SIGKILL');

    await startWorker();
    // The dead worker's job is handed to the new one once its lock lapses; it then settles.
    await drainQueues(api, { timeoutMs: 45_000 });
    const { deliveries: records } = await unwrap(
      alice.console.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: webhook.id } } }),
    );
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      id: first!.headers['x-service-delivery'],
      event: 'share_visited',
      status: 'error',
      responseCode: null,
      attempts: 1,
    });
    expect(records[0]!.responseBody).toContain('中断');

    // The recovered job settled without a new request.
    expect(receiver.at('/hold')).toHaveLength(1);
  });
});
