import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { RUNTIME, type Runtime } from '../common/runtime.js';

const CHANNEL = 'sharedown_changes';
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

/**
 * What a change is about; each cache subscribes to its own. `accounts` (key: user id): an
 * account changed (disabled, enabled, deleted, its quota or usage); `tokens` (key: token prefix);
 * `shares` (key: the owner's user id): something a share's gate row shows changed (the share, its
 * file, folder or versions). All three are announced by database triggers on `users` and
 * `api_tokens` (migration 1763700001300) and on `shares`, `files`, `folders` and `file_versions`
 * (migration 1763700001800), whichever code path changes the row.
 */
export type ChangeTopic = 'webhooks' | 'shares' | 'accounts' | 'tokens';

type Listener = (key: string | null) => void;

/**
 * Tells every process (api replicas, workers) that something a cache holds has changed, through
 * PostgreSQL LISTEN/NOTIFY: the database every process already shares, in both deployments.
 * A notification reaches every listener, including the sender's own, within milliseconds.
 *
 * While the listening connection is down, `live` is false and notifications may be missed:
 * caches must then not serve what they hold. After a reconnect every listener hears `null`
 * (everything may have changed) before it can trust its cache again.
 */
@Injectable()
export class ChangeFeed implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeFeed');
  private readonly listeners = new Map<ChangeTopic, Set<Listener>>();
  private client: pg.Client | null = null;
  private connected = false;
  private stopped = false;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  /** True while notifications are being received. */
  get live(): boolean {
    return this.connected;
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  subscribe(topic: ChangeTopic, listener: Listener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * Announces a change to every process. `query` may be a transaction's manager: PostgreSQL then
   * delivers the notification only when that transaction commits, and never if it rolls back.
   */
  async publish(
    topic: ChangeTopic,
    key: string,
    query: { query: (sql: string, parameters: unknown[]) => Promise<unknown> },
  ): Promise<void> {
    await query.query('SELECT pg_notify($1, $2)', [CHANNEL, `${topic}:${key}`]);
  }

  /**
   * Tells this process's own listeners, at once, of a change it has just committed outside any
   * request (a scan's verdict): the database's notification reaches every process, this one
   * included, only milliseconds later, and a visit arriving meanwhile must see the change.
   */
  heardHere(topic: ChangeTopic, key: string): void {
    this.dispatch(`${topic}:${key}`);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.runtime.databaseUrl, connectionTimeoutMillis: 5_000 });
    client.on('notification', (message) => this.dispatch(message.payload ?? ''));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      this.logger.warn(`cannot listen for changes: ${error instanceof Error ? error.message : String(error)}`);
      this.lost(client);
      return;
    }
    this.connected = true;
    this.retryMs = RECONNECT_MIN_MS;
    // Whatever changed while nobody listened is unknown: every cache starts over.
    for (const set of this.listeners.values()) for (const listener of set) listener(null);
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.connected = false;
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
  }

  private dispatch(payload: string): void {
    const colon = payload.indexOf(':');
    if (colon < 0) return;
    const set = this.listeners.get(payload.slice(0, colon) as ChangeTopic);
    if (!set) return;
    const key = payload.slice(colon + 1);
    for (const listener of set) listener(key);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }
}
