import { createHmac, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { drainQueues } from '../support/queues.js';
import { WebhookReceiver, shareMarkdown, type ReceivedRequest, type SharedDocument } from '../support/webhook-receiver.js';

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LONG_BODY = 'x'.repeat(600) + 'é'.repeat(600);

/** The receiver-side check from docs/webhooks.md. */
function signatureIsValid(secret: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const received = Buffer.from(header);
  return received.length === expected.length && timingSafeEqual(received, expected);
}

function bodyOf(request: ReceivedRequest): { event: string; timestamp: string; data: Record<string, unknown> } {
  return JSON.parse(request.body.toString('utf8'));
}

describe('webhook delivery', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let receiver: WebhookReceiver;
  let aliceDoc: SharedDocument;
  let bobDoc: SharedDocument;

  beforeAll(async () => {
    receiver = await new WebhookReceiver((request) => {
      if (request.path.startsWith('/slow')) return { status: 200, body: 'late', delayMs: 6_500 };
      if (request.path.startsWith('/dribble')) return { status: 200, body: 'late body', bodyDelayMs: 6_500 };
      if (request.path.startsWith('/fail')) return { status: 500, body: LONG_BODY };
      if (request.path.startsWith('/redirect')) return { status: 302, headers: { location: '/redirected' } };
      return { status: 200, body: `ok ${request.path}` };
    }).start();
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    [aliceDoc, bobDoc] = await Promise.all([
      shareMarkdown(app.baseUrl, alice, 'alice-notes.md'),
      shareMarkdown(app.baseUrl, bob, 'bob-notes.md'),
    ]);
  });
  afterAll(async () => {
    await app?.cleanup();
    await receiver?.close();
  });

  async function subscribe(user: TestUser, path: string, events: string[]) {
    return unwrap(user.console.POST('/api/webhooks', { body: { url: receiver.url(path), events: events as never } }));
  }

  async function deliveries(user: TestUser, webhookId: string) {
    return (await unwrap(user.console.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: webhookId } } }))).deliveries;
  }

  async function waitForDeliveries(user: TestUser, webhookId: string, count: number, timeoutMs = 15_000) {
    await expect
      .poll(async () => (await deliveries(user, webhookId)).length, { timeout: timeoutMs, interval: 100 })
      .toBeGreaterThanOrEqual(count);
    return deliveries(user, webhookId);
  }

  async function view(doc: SharedDocument, headers: Record<string, string> = {}) {
    const response = await fetch(doc.url, { headers, redirect: 'manual' });
    await response.arrayBuffer();
    expect(response.status).toBe(200);
  }

  async function report(doc: SharedDocument, reason: string) {
    const response = await fetch(`${doc.url}/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(doc.url).origin },
      body: new URLSearchParams({ reason }).toString(),
      redirect: 'manual',
    });
    await response.arrayBuffer();
    expect(response.status).toBe(200);
  }

  async function removeAll(user: TestUser) {
    for (const { id } of (await unwrap(user.console.GET('/api/webhooks'))).webhooks) {
      await unwrap(user.console.DELETE('/api/webhooks/{id}', { params: { path: { id } } }));
    }
  }

  it('sends share_visited with exact headers, a signature over the raw bytes and the spec body', async () => {
    const { webhook, secret } = await subscribe(alice, '/exact', ['share_visited']);
    const before = Date.now();
    await view(aliceDoc, { referer: 'https://chat.example/room/7' });
    const [request] = await receiver.waitFor(1, { path: '/exact' });

    expect(request!.method).toBe('POST');
    const names = request!.rawHeaders.map(([name]) => name);
    for (const name of ['Content-Type', 'User-Agent', 'X-Service-Event', 'X-Service-Signature', 'X-Service-Delivery']) {
      expect(names, name).toContain(name);
    }
    const header = (name: string) => request!.rawHeaders.filter(([n]) => n === name).map(([, value]) => value);
    expect(header('Content-Type')).toEqual(['application/json']);
    expect(header('User-Agent')).toEqual(['Sharedown-Webhooks/1.0']);
    expect(header('X-Service-Event')).toEqual(['share_visited']);
    expect(header('X-Service-Signature')[0]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(header('X-Service-Delivery')[0]).toMatch(/^\S{16,}$/);

    expect(signatureIsValid(secret, request!.body, request!.headers['x-service-signature'])).toBe(true);
    const tampered = Buffer.from(request!.body);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
    expect(signatureIsValid(secret, tampered, request!.headers['x-service-signature'])).toBe(false);
    expect(signatureIsValid('whsec_wrong', request!.body, request!.headers['x-service-signature'])).toBe(false);

    const body = bodyOf(request!);
    expect(Object.keys(body)).toEqual(['event', 'timestamp', 'data']);
    expect(body.event).toBe('share_visited');
    expect(body.timestamp).toMatch(ISO_UTC_MS);
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.timestamp)).toBeLessThanOrEqual(request!.receivedAt);
    expect(Object.keys(body.data).sort()).toEqual(
      ['fileId', 'fileKind', 'fileName', 'ipPrefix', 'referer', 'shareId', 'token', 'uniqueVisitCount', 'visitCount'].sort(),
    );
    expect(body.data).toEqual({
      shareId: aliceDoc.shareId,
      token: aliceDoc.token,
      fileId: aliceDoc.fileId,
      fileName: aliceDoc.fileName,
      fileKind: 'MARKDOWN',
      visitCount: expect.any(Number),
      uniqueVisitCount: expect.any(Number),
      ipPrefix: '127.0.0.0/24',
      referer: 'https://chat.example/room/7',
    });
    expect(Number.isInteger(body.data.visitCount) && (body.data.visitCount as number) >= 1).toBe(true);
    expect(Number.isInteger(body.data.uniqueVisitCount) && (body.data.uniqueVisitCount as number) >= 1).toBe(true);

    const [record] = await waitForDeliveries(alice, webhook.id, 1);
    expect(Object.keys(record!).sort()).toEqual(
      ['attempts', 'deliveredAt', 'durationMs', 'event', 'eventId', 'id', 'responseBody', 'responseCode', 'status'].sort(),
    );
    expect(record).toMatchObject({
      id: header('X-Service-Delivery')[0],
      event: 'share_visited',
      status: 'success',
      responseCode: 200,
      attempts: 1,
      responseBody: 'ok /exact',
    });
    expect(record!.deliveredAt).toMatch(ISO_UTC_MS);
    expect(Number.isInteger(record!.durationMs) && record!.durationMs >= 0 && record!.durationMs < 5000).toBe(true);
    await removeAll(alice);
  });

  it('delivers only subscribed events of the owner’s own shares, to active webhooks', async () => {
    const visited = await subscribe(alice, '/f-visited', ['share_visited']);
    const reported = await subscribe(alice, '/f-reported', ['share_reported']);
    const both = await subscribe(alice, '/f-both', ['share_visited', 'share_reported']);
    const reserved = await subscribe(alice, '/f-reserved', ['share_expiring_soon']);
    const paused = await subscribe(alice, '/f-paused', ['share_visited', 'share_reported']);
    await unwrap(
      alice.console.PATCH('/api/webhooks/{id}', { params: { path: { id: paused.webhook.id } }, body: { active: false } }),
    );
    const deleted = await subscribe(alice, '/f-deleted', ['share_visited']);
    await unwrap(alice.console.DELETE('/api/webhooks/{id}', { params: { path: { id: deleted.webhook.id } } }));
    const bobs = await subscribe(bob, '/f-bob', ['share_visited', 'share_reported']);

    await view(aliceDoc);
    await report(aliceDoc, 'this looks like spam');
    await view(bobDoc);

    const [visit] = await receiver.waitFor(1, { path: '/f-visited' });
    const [reportEvent] = await receiver.waitFor(1, { path: '/f-reported' });
    const bothEvents = await receiver.waitFor(2, { path: '/f-both' });
    const [bobEvent] = await receiver.waitFor(1, { path: '/f-bob' });
    // Anything that should not come was queued with what came: once the queues are idle, it would be here.
    await drainQueues(app);

    expect(bodyOf(visit!)).toMatchObject({ event: 'share_visited', data: { shareId: aliceDoc.shareId } });
    expect(visit!.headers['x-service-event']).toBe('share_visited');
    expect(signatureIsValid(visited.secret, visit!.body, visit!.headers['x-service-signature'])).toBe(true);

    const reportBody = bodyOf(reportEvent!);
    expect(reportEvent!.headers['x-service-event']).toBe('share_reported');
    expect(reportBody.event).toBe('share_reported');
    expect(reportBody.timestamp).toMatch(ISO_UTC_MS);
    expect(reportBody.data).toEqual({
      shareId: aliceDoc.shareId,
      token: aliceDoc.token,
      fileId: aliceDoc.fileId,
      reason: 'this looks like spam',
      reportedAt: expect.stringMatching(ISO_UTC_MS),
    });
    expect(signatureIsValid(reported.secret, reportEvent!.body, reportEvent!.headers['x-service-signature'])).toBe(true);

    expect(bothEvents.map((request) => bodyOf(request).event).sort()).toEqual(['share_reported', 'share_visited']);
    for (const request of bothEvents)
      expect(signatureIsValid(both.secret, request.body, request.headers['x-service-signature'])).toBe(true);
    // One event, two webhooks: the same timestamp, a delivery id of its own each.
    const visitToBoth = bothEvents.find((request) => bodyOf(request).event === 'share_visited')!;
    expect(bodyOf(visitToBoth).timestamp).toBe(bodyOf(visit!).timestamp);
    expect(visitToBoth.headers['x-service-delivery']).not.toBe(visit!.headers['x-service-delivery']);

    expect(bodyOf(bobEvent!)).toMatchObject({ event: 'share_visited', data: { shareId: bobDoc.shareId } });
    expect(receiver.at('/f-visited')).toHaveLength(1);
    expect(receiver.at('/f-reported')).toHaveLength(1);
    expect(receiver.at('/f-both')).toHaveLength(2);
    expect(receiver.at('/f-bob')).toHaveLength(1);
    expect(receiver.at('/f-reserved')).toHaveLength(0);
    expect(receiver.at('/f-paused')).toHaveLength(0);
    expect(receiver.at('/f-deleted')).toHaveLength(0);
    expect(await deliveries(alice, reserved.webhook.id)).toEqual([]);
    expect(await deliveries(alice, paused.webhook.id)).toEqual([]);
    expect((await deliveries(bob, bobs.webhook.id)).map((record) => record.event)).toEqual(['share_visited']);

    // Resumed, it receives again.
    await unwrap(
      alice.console.PATCH('/api/webhooks/{id}', { params: { path: { id: paused.webhook.id } }, body: { active: true } }),
    );
    await view(aliceDoc);
    await receiver.waitFor(1, { path: '/f-paused' });
    await removeAll(alice);
    await removeAll(bob);
  });

  it('records a slow receiver as timeout without holding up other deliveries, and a 500 as failed, never retried', async () => {
    const slow = await subscribe(alice, '/slow', ['share_visited']);
    const dribbling = await subscribe(alice, '/dribble', ['share_visited']);
    const failing = await subscribe(alice, '/fail', ['share_visited']);
    const redirecting = await subscribe(alice, '/redirect', ['share_visited']);
    const fast = await subscribe(alice, '/fast', ['share_visited']);
    await view(aliceDoc);

    // While the slow receiver holds its request, the others are delivered and recorded.
    await receiver.waitFor(1, { path: '/slow' });
    const [fastRecord] = await waitForDeliveries(alice, fast.webhook.id, 1);
    const [failedRecord] = await waitForDeliveries(alice, failing.webhook.id, 1);
    const [redirectRecord] = await waitForDeliveries(alice, redirecting.webhook.id, 1);
    expect(await deliveries(alice, slow.webhook.id)).toEqual([]);
    expect(fastRecord).toMatchObject({ status: 'success', responseCode: 200 });

    expect(failedRecord).toMatchObject({ status: 'failed', responseCode: 500, attempts: 1 });
    expect(Buffer.byteLength(failedRecord!.responseBody!, 'utf8')).toBeLessThanOrEqual(1024);
    expect(failedRecord!.responseBody!.length).toBeGreaterThan(700);
    expect(LONG_BODY.startsWith(failedRecord!.responseBody!)).toBe(true);

    expect(redirectRecord).toMatchObject({ status: 'failed', responseCode: 302, attempts: 1 });

    const [timeoutRecord] = await waitForDeliveries(alice, slow.webhook.id, 1, 10_000);
    expect(timeoutRecord).toMatchObject({ status: 'timeout', attempts: 1, event: 'share_visited' });
    expect(timeoutRecord!.durationMs).toBeGreaterThanOrEqual(4900);
    expect(timeoutRecord!.durationMs).toBeLessThan(6500);
    // The 5 s cover the response body too, not only the wait for headers.
    const [dribbleRecord] = await waitForDeliveries(alice, dribbling.webhook.id, 1, 5_000);
    expect(dribbleRecord).toMatchObject({ status: 'timeout', responseCode: 200, attempts: 1 });
    expect(dribbleRecord!.durationMs).toBeGreaterThanOrEqual(4900);

    // No retry and no redirect follow-up: a retry would be a job still queued or delayed.
    await drainQueues(app);
    expect(receiver.at('/slow')).toHaveLength(1);
    expect(receiver.at('/dribble')).toHaveLength(1);
    expect(receiver.at('/fail')).toHaveLength(1);
    expect(receiver.at('/redirect')).toHaveLength(1);
    expect(receiver.at('/redirected')).toHaveLength(0);
    expect(await deliveries(alice, failing.webhook.id)).toHaveLength(1);
    await removeAll(alice);
  });

  it('keeps only the newest 50 delivery records, purging older ones from the database', async () => {
    const { webhook } = await subscribe(alice, '/history', ['share_visited']);
    await Promise.all(Array.from({ length: 10 }, () => view(aliceDoc)));
    const old = await waitForDeliveries(alice, webhook.id, 10);
    for (let batch = 0; batch < 5; batch++) await Promise.all(Array.from({ length: 10 }, () => view(aliceDoc)));
    await receiver.waitFor(60, { path: '/history', timeoutMs: 30_000 });

    const db = new pg.Client({ connectionString: await app.databaseUrl() });
    await db.connect();
    try {
      const stored = async () =>
        (await db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [webhook.id])).rows[0]
          .n as number;
      await expect.poll(stored, { timeout: 10_000, interval: 100 }).toBe(50);
      await drainQueues(app);
      expect(await stored()).toBe(50);
    } finally {
      await db.end();
    }

    const records = await deliveries(alice, webhook.id);
    expect(records).toHaveLength(50);
    const times = records.map((record) => Date.parse(record.deliveredAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const kept = new Set(records.map((record) => record.id));
    for (const record of old) expect(kept.has(record.id)).toBe(false);
    const newest = receiver.at('/history').map((request) => request.headers['x-service-delivery'] as string);
    expect(newest.filter((id) => kept.has(id))).toHaveLength(50);
    await removeAll(alice);
  });
});
