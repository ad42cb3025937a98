import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { ChangeFeed } from '../database/change-feed.js';
import type { WebhookEventName } from './webhook-event.js';
import { WebhooksRepository } from './webhooks.repository.js';

export interface ActiveSubscription {
  webhookId: string;
  events: readonly WebhookEventName[];
  /** The webhook belongs to a shared workspace: its events name it (`workspaceId`). */
  workspace: boolean;
}

interface Entry {
  loadedAt: number;
  subscriptions: Promise<ActiveSubscription[]>;
}

/**
 * Per-user cache of active webhook subscriptions, read on every share view. A change made in
 * this process drops the entry at once and tells every other process through the change feed,
 * so a created or deleted webhook counts everywhere within milliseconds. While the feed is not
 * receiving, nothing is served from the cache; the TTL only bounds a lost notification.
 */
@Injectable()
export class WebhookSubscriptionCache {
  static readonly ttlMs = 30_000;
  static readonly maxEntries = 10_000;
  private readonly logger = new Logger('Webhooks');
  // The least recently used users go first once there are too many.
  private readonly entries = new LRUCache<string, Entry>({ max: WebhookSubscriptionCache.maxEntries });

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly db: DataSource,
    private readonly feed: ChangeFeed,
  ) {
    feed.subscribe('webhooks', (userId) => (userId === null ? this.entries.clear() : this.entries.delete(userId)));
  }

  /** Not an async function: a cached entry answers its own promise, without another promise and its ticks around it. */
  get(userId: string): Promise<ActiveSubscription[]> {
    const now = Date.now();
    const cached = this.entries.get(userId);
    if (cached && this.feed.live && now - cached.loadedAt < WebhookSubscriptionCache.ttlMs) return cached.subscriptions;

    // Concurrent misses share one query instead of each hitting the database.
    const subscriptions = this.load(userId);
    const entry: Entry = { loadedAt: now, subscriptions };
    this.entries.set(userId, entry);
    subscriptions.catch(() => {
      if (this.entries.peek(userId) === entry) this.entries.delete(userId);
    });
    return subscriptions;
  }

  /** Called after a change to the user's webhooks has been committed. */
  async invalidate(userId: string): Promise<void> {
    this.entries.delete(userId);
    await this.feed.publish('webhooks', userId, this.db).catch((error: unknown) => {
      // Other processes then catch up by TTL, or at once when their feed reconnects.
      this.logger.warn(`could not announce a webhook change: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async load(userId: string): Promise<ActiveSubscription[]> {
    const active = await this.webhooks.listActiveEvents(userId);
    return active.map((webhook) => ({ webhookId: webhook.id, events: webhook.events, workspace: webhook.workspace }));
  }
}
