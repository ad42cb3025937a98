import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DataSource } from 'typeorm';
import type { ChangeFeed, ChangeTopic } from '../database/change-feed.js';
import type { QueueService } from '../queue/queue.service.js';
import type { WebhookDeliveryJob } from './webhook-event.js';
import { WebhookEventsService } from './webhook-events.service.js';
import { WebhookSubscriptionCache } from './webhook-subscription-cache.js';
import type { WebhooksRepository } from './webhooks.repository.js';

interface Row {
  id: string;
  user_id: string;
  events: string[];
  active: boolean;
}

/** An in-memory `webhooks` table that answers the cache's one read and counts how often it is asked. */
class WebhooksTable {
  rows: Row[] = [];
  queries = 0;
  failNext = false;

  async listActiveEvents(userId: string) {
    this.queries++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection lost');
    }
    return this.rows.filter((row) => row.user_id === userId && row.active).map(({ id, events }) => ({ id, events }));
  }
}

/** The change feed as every process sees it: announcements reach all subscribers, and it can go down. */
class FakeFeed {
  live = true;
  published: string[] = [];
  private readonly listeners: Array<{ topic: ChangeTopic; listener: (key: string | null) => void }> = [];

  subscribe(topic: ChangeTopic, listener: (key: string | null) => void) {
    this.listeners.push({ topic, listener });
    return () => undefined;
  }

  async publish(topic: ChangeTopic, key: string) {
    this.published.push(`${topic}:${key}`);
  }

  /** A notification sent by another replica arriving here. */
  deliver(topic: ChangeTopic, key: string | null) {
    for (const entry of this.listeners) if (entry.topic === topic) entry.listener(key);
  }
}

class RecordingQueue {
  batches: Array<Array<{ name: string; data: WebhookDeliveryJob; opts: Record<string, unknown> }>> = [];
  failing = false;

  async addBulk(jobs: Array<{ name: string; data: WebhookDeliveryJob; opts: Record<string, unknown> }>) {
    if (this.failing) throw new Error('queue down');
    this.batches.push(jobs);
    return [];
  }
}

describe(WebhookEventsService.name, () => {
  let table: WebhooksTable;
  let queue: RecordingQueue;
  let feed: FakeFeed;
  let cache: WebhookSubscriptionCache;
  let sut: WebhookEventsService;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    table = new WebhooksTable();
    queue = new RecordingQueue();
    feed = new FakeFeed();
    cache = new WebhookSubscriptionCache(table as unknown as WebhooksRepository, {} as DataSource, feed as unknown as ChangeFeed);
    const queues = { queue: (name: string) => (expect(name).toBe('webhooks'), queue) };
    sut = new WebhookEventsService(cache, queues as unknown as QueueService);
  });
  afterEach(() => vi.useRealTimers());

  it('writes nothing to the queue when the owner has no active subscription to the event', async () => {
    table.rows = [
      { id: 'w-reported', user_id: 'u1', events: ['share_reported'], active: true },
      { id: 'w-paused', user_id: 'u1', events: ['share_visited'], active: false },
      { id: 'w-other', user_id: 'u2', events: ['share_visited'], active: true },
    ];
    await sut.emit('u1', 'share_visited', { shareId: 's1' });
    await sut.emit('u3', 'share_visited', { shareId: 's2' });
    expect(queue.batches).toEqual([]);
  });

  it('queues one single-attempt job per subscribed webhook, sharing the event id and timestamp', async () => {
    table.rows = [
      { id: 'w1', user_id: 'u1', events: ['share_visited'], active: true },
      { id: 'w2', user_id: 'u1', events: ['share_visited', 'share_reported'], active: true },
      { id: 'w3', user_id: 'u1', events: ['share_reported'], active: true },
    ];
    vi.setSystemTime(new Date('2026-03-04T05:06:07.089Z'));
    await sut.emit('u1', 'share_visited', { shareId: 's1', visitCount: 3 });

    expect(queue.batches).toHaveLength(1);
    const [jobs] = queue.batches;
    expect(jobs!.map((job) => job.data.webhookId)).toEqual(['w1', 'w2']);
    const [first, second] = jobs!;
    expect(first!.data.eventId).toBe(second!.data.eventId);
    expect(first!.data.deliveryId).not.toBe(second!.data.deliveryId);
    for (const job of jobs!) {
      expect(job.name).toBe('share_visited');
      expect(job.data).toMatchObject({
        event: 'share_visited',
        timestamp: '2026-03-04T05:06:07.089Z',
        data: { shareId: 's1', visitCount: 3 },
      });
      expect(job.opts).toMatchObject({ attempts: 1, jobId: `${job.data.eventId}.${job.data.webhookId}` });
      expect(job.opts.jobId).not.toContain(':');
    }

    await sut.emit('u1', 'share_visited', { shareId: 's1' });
    expect(queue.batches[1]![0]!.data.eventId).not.toBe(first!.data.eventId);
  });

  it('reads the subscriptions once per user within the TTL, however many views there are', async () => {
    table.rows = [{ id: 'w1', user_id: 'u1', events: ['share_visited'], active: true }];
    await Promise.all(Array.from({ length: 20 }, () => sut.emit('u1', 'share_visited', {})));
    for (let i = 0; i < 20; i++) await sut.emit('u1', 'share_visited', {});
    expect(table.queries).toBe(1);
    expect(queue.batches).toHaveLength(40);

    await sut.emit('u2', 'share_visited', {});
    await sut.emit('u2', 'share_visited', {});
    expect(table.queries).toBe(2);
  });

  it('sees a change announced by another replica at once', async () => {
    await sut.emit('u1', 'share_visited', {});
    table.rows = [{ id: 'w1', user_id: 'u1', events: ['share_visited'], active: true }];
    await sut.emit('u1', 'share_visited', {});
    expect(queue.batches).toHaveLength(0);
    feed.deliver('webhooks', 'u1');
    await sut.emit('u1', 'share_visited', {});
    expect(queue.batches).toHaveLength(1);
    expect(table.queries).toBe(2);
  });

  it('starts over when the feed reconnects, and serves nothing from the cache while it is down', async () => {
    await sut.emit('u1', 'share_visited', {});
    table.rows = [{ id: 'w1', user_id: 'u1', events: ['share_visited'], active: true }];
    feed.live = false;
    await sut.emit('u1', 'share_visited', {});
    await sut.emit('u1', 'share_visited', {});
    expect(table.queries).toBe(3);
    expect(queue.batches).toHaveLength(2);
    feed.live = true;
    feed.deliver('webhooks', null);
    table.rows = [];
    await sut.emit('u1', 'share_visited', {});
    expect(queue.batches).toHaveLength(2);
  });

  it('bounds a lost notification by the TTL', async () => {
    vi.setSystemTime(new Date('2026-03-04T00:00:00.000Z'));
    await sut.emit('u1', 'share_visited', {});
    table.rows = [{ id: 'w1', user_id: 'u1', events: ['share_visited'], active: true }];
    vi.setSystemTime(new Date(Date.parse('2026-03-04T00:00:00.000Z') + WebhookSubscriptionCache.ttlMs - 1));
    await sut.emit('u1', 'share_visited', {});
    expect(queue.batches).toHaveLength(0);
    vi.setSystemTime(new Date(Date.parse('2026-03-04T00:00:00.000Z') + WebhookSubscriptionCache.ttlMs + 1));
    await sut.emit('u1', 'share_visited', {});
    expect(queue.batches).toHaveLength(1);
  });

  it('sees a change made in this process at once, and announces it to the others', async () => {
    await sut.emit('u1', 'share_visited', {});
    table.rows = [{ id: 'w1', user_id: 'u1', events: ['share_visited'], active: true }];
    await cache.invalidate('u1');
    expect(feed.published).toEqual(['webhooks:u1']);
    await sut.emit('u1', 'share_visited', {});
    expect(queue.batches).toHaveLength(1);
  });

  it('never rejects: a failing database or queue is logged and the view goes on', async () => {
    table.rows = [{ id: 'w1', user_id: 'u1', events: ['share_visited'], active: true }];
    table.failNext = true;
    await expect(sut.emit('u1', 'share_visited', {})).resolves.toBeUndefined();
    // A failed read is not cached.
    await sut.emit('u1', 'share_visited', {});
    expect(queue.batches).toHaveLength(1);
    queue.failing = true;
    await expect(sut.emit('u1', 'share_visited', {})).resolves.toBeUndefined();
  });

  it('keeps the subscriptions of a bounded number of users, dropping the least recently used', async () => {
    const users = WebhookSubscriptionCache.maxEntries + 1;
    await sut.emit('u-kept', 'share_visited', {});
    for (let i = 0; i < users - 2; i++) await sut.emit(`u${i}`, 'share_visited', {});
    await sut.emit('u-kept', 'share_visited', {});
    await sut.emit('u-last', 'share_visited', {});
    expect(table.queries).toBe(users);
    await sut.emit('u-kept', 'share_visited', {});
    await sut.emit('u-last', 'share_visited', {});
    expect(table.queries).toBe(users);
    await sut.emit('u0', 'share_visited', {});
    expect(table.queries).toBe(users + 1);
  });
});
