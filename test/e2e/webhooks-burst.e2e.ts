import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { drainQueues } from '../support/queues.js';
import { WebhookReceiver, shareMarkdown } from '../support/webhook-receiver.js';

const VISITS = 100;
const SESSION_SECRET = 'burst-test-session-secret-0123456789abcdef';

/** Two full processes on one database and queue: two API replicas, two delivery workers. */
describe('a burst of share visits', () => {
  let first: RunningApp;
  let second: RunningApp;
  let alice: TestUser;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    first = await startApp({ env: { SESSION_SECRET } });
    second = await startApp({
      env: {
        SESSION_SECRET,
        DATABASE_URL: await first.databaseUrl(),
        ...(first.env.REDIS_URL ? { REDIS_URL: first.env.REDIS_URL } : {}),
      },
    });
    alice = await createUser(first.baseUrl);
  });
  afterAll(async () => {
    await second?.cleanup();
    await first?.cleanup();
    await receiver?.close();
  });

  it(`gives exactly ${VISITS} deliveries for ${VISITS} visits, each signed and each event once`, async () => {
    const doc = await shareMarkdown(first.baseUrl, alice, 'burst.md');
    const { webhook, secret } = await unwrap(
      alice.console.POST('/api/webhooks', { body: { url: receiver.url('/burst'), events: ['share_visited'] } }),
    );
    const path = new URL(doc.url).pathname;

    const queue = Array.from({ length: VISITS }, (_, i) => (i % 2 === 0 ? first : second));
    const viewer = async () => {
      for (let app = queue.pop(); app; app = queue.pop()) {
        const response = await fetch(`${app.baseUrl}${path}`, { redirect: 'manual' });
        await response.arrayBuffer();
        expect(response.status).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: 10 }, viewer));

    await receiver.waitFor(VISITS, { path: '/burst', timeoutMs: 45_000 });
    // A duplicate would be a job still queued, running or retrying: wait until none is left.
    await drainQueues(first);
    const received = receiver.at('/burst');
    expect(received).toHaveLength(VISITS);

    const deliveryIds = new Set(received.map((request) => request.headers['x-service-delivery']));
    expect(deliveryIds.size).toBe(VISITS);
    const counts = received.map((request) => JSON.parse(request.body.toString('utf8')).data.visitCount as number);
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: VISITS }, (_, i) => i + 1));
    for (const request of received) {
      expect(request.headers['x-service-signature']).toBe(
        `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`,
      );
    }

    const share = await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: doc.shareId } } }));
    expect(share).toMatchObject({ visitCount: VISITS });

    // Drained, every delivery has been recorded: the newest 50 are kept.
    const { deliveries: records } = await unwrap(
      alice.console.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: webhook.id } } }),
    );
    expect(records).toHaveLength(50);
    for (const record of records) {
      expect(record).toMatchObject({ status: 'success', attempts: 1, responseCode: 200 });
      expect(deliveryIds.has(record.id)).toBe(true);
    }
  });
});
