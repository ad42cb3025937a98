import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WebhookEventName } from './webhook-event.js';

export interface ActiveSubscription {
  webhookId: string;
  events: readonly WebhookEventName[];
}

interface Entry {
  loadedAt: number;
  subscriptions: Promise<ActiveSubscription[]>;
}

/**
 * Per-user cache of active webhook subscriptions, read on every share view. Changes made in
 * this process invalidate the entry at once; the short TTL lets other replicas converge.
 */
@Injectable()
export class WebhookSubscriptionCache {
  static readonly ttlMs = 5_000;
  static readonly maxEntries = 10_000;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly db: DataSource) {}

  async get(userId: string): Promise<ActiveSubscription[]> {
    const now = Date.now();
    const cached = this.entries.get(userId);
    if (cached && now - cached.loadedAt < WebhookSubscriptionCache.ttlMs) return cached.subscriptions;

    // Concurrent misses share one query instead of each hitting the database.
    const subscriptions = this.load(userId);
    const entry: Entry = { loadedAt: now, subscriptions };
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    this.evictOverflow();
    subscriptions.catch(() => {
      if (this.entries.get(userId) === entry) this.entries.delete(userId);
    });
    return subscriptions;
  }

  invalidate(userId: string): void {
    this.entries.delete(userId);
  }

  private async load(userId: string): Promise<ActiveSubscription[]> {
    const rows: { id: string; events: WebhookEventName[] }[] = await this.db.query(
      'SELECT id, events FROM webhooks WHERE user_id = $1 AND active ORDER BY created_at, id',
      [userId],
    );
    return rows.map((row) => ({ webhookId: row.id, events: row.events }));
  }

  private evictOverflow(): void {
    // Map keeps insertion order and get() re-inserts on refresh, so the first keys are the stalest.
    while (this.entries.size > WebhookSubscriptionCache.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
