import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  containsPattern,
  cursorTimeSql,
  newestFirstAfterSql,
  type NewestFirstKey,
  type PageRequest,
} from '../common/page-cursor.js';
import type { Columns } from '../database/rows.js';
import type { WebhookEventName } from './webhook-event.js';

export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEventName[];
  active: boolean;
  createdAt: string;
}

/** What the delivery worker needs: the view plus the owner and the signing secret. */
export interface WebhookTarget extends WebhookView {
  userId: string;
  secret: string;
}

/** COLUMNS. */
type WebhookRow = Columns<
  'webhooks',
  'id' | 'user_id' | 'url' | 'events' | 'secret' | 'active' | 'created_at',
  { events: WebhookEventName[] }
>;

const COLUMNS = 'id, user_id, url, events, secret, active, created_at';

function toView(row: WebhookRow): WebhookView {
  return { id: row.id, url: row.url, events: row.events, active: row.active, createdAt: row.created_at.toISOString() };
}

export type ActiveLimitCheck = (activeCount: number) => void;

/** SQL for the `webhooks` table. Ids that are not UUIDs simply match nothing. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: DataSource) {}

  async list(userId: string): Promise<WebhookView[]> {
    const rows: WebhookRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM webhooks WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return rows.map(toView);
  }

  /** One page and one row more, newest first (ties by id, as `list`); `q` matches a part of the URL. */
  async page(
    userId: string,
    q: string | undefined,
    page: PageRequest<NewestFirstKey>,
  ): Promise<Array<WebhookView & { cursorTime: string }>> {
    const params: unknown[] = [userId];
    const where = ['user_id = $1'];
    if (q) {
      params.push(containsPattern(q));
      where.push(`url ILIKE $${params.length}`);
    }
    if (page.after) {
      params.push(page.after.createdAt, page.after.id);
      where.push(newestFirstAfterSql(params.length - 1, params.length));
    }
    params.push(page.limit + 1);
    const rows: Array<WebhookRow & { cursor_time: string }> = await this.db.query(
      `SELECT ${COLUMNS}, ${cursorTimeSql('created_at')} AS cursor_time FROM webhooks
       WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({ ...toView(row), cursorTime: row.cursor_time }));
  }

  /** How many webhooks `q` lets through, and how many of all the owner's are active. */
  async counts(userId: string, q: string | undefined): Promise<{ total: number; activeCount: number }> {
    const [row]: Array<{ total: number; active_count: number }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE $2::text IS NULL OR url ILIKE $2)::int AS total,
              count(*) FILTER (WHERE active)::int AS active_count
       FROM webhooks WHERE user_id = $1`,
      [userId, q ? containsPattern(q) : null],
    );
    return { total: row!.total, activeCount: row!.active_count };
  }

  async findOwned(userId: string, id: string): Promise<WebhookView | null> {
    const rows: WebhookRow[] = await this.db.query(`SELECT ${COLUMNS} FROM webhooks WHERE id::text = $2 AND user_id = $1`, [
      userId,
      id,
    ]);
    return rows[0] ? toView(rows[0]) : null;
  }

  async findTarget(id: string): Promise<WebhookTarget | null> {
    const rows: WebhookRow[] = await this.db.query(`SELECT ${COLUMNS} FROM webhooks WHERE id::text = $1`, [id]);
    const row = rows[0];
    return row ? { ...toView(row), userId: row.user_id, secret: row.secret } : null;
  }

  /** Inserts an active webhook; `checkLimit` sees the owner's active count under a per-user lock. */
  async createActive(
    userId: string,
    input: { url: string; events: WebhookEventName[]; secret: string },
    checkLimit: ActiveLimitCheck,
  ): Promise<WebhookView> {
    return this.db.transaction(async (manager) => {
      checkLimit(await this.lockAndCountActive(manager, userId));
      const rows: WebhookRow[] = await manager.query(
        `INSERT INTO webhooks (user_id, url, events, secret) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [userId, input.url, input.events, input.secret],
      );
      return toView(rows[0]!);
    });
  }

  /** Pauses or resumes; resuming runs `checkLimit` like a creation does. Null when not the user's. */
  async setActive(userId: string, id: string, active: boolean, checkLimit: ActiveLimitCheck): Promise<WebhookView | null> {
    return this.db.transaction(async (manager) => {
      const activeCount = await this.lockAndCountActive(manager, userId);
      const current: WebhookRow[] = await manager.query(`SELECT ${COLUMNS} FROM webhooks WHERE id::text = $2 AND user_id = $1`, [
        userId,
        id,
      ]);
      if (!current[0]) return null;
      if (current[0].active === active) return toView(current[0]);
      if (active) checkLimit(activeCount);
      const [rows]: [WebhookRow[], number] = await manager.query(
        `UPDATE webhooks SET active = $3 WHERE id = $2 AND user_id = $1 RETURNING ${COLUMNS}`,
        [userId, current[0].id, active],
      );
      return toView(rows[0]!);
    });
  }

  async delete(userId: string, id: string): Promise<WebhookView | null> {
    const [rows]: [WebhookRow[], number] = await this.db.query(
      `DELETE FROM webhooks WHERE id::text = $2 AND user_id = $1 RETURNING ${COLUMNS}`,
      [userId, id],
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The active webhooks of a user and their events, oldest first: what the subscription cache holds. */
  async listActiveEvents(userId: string): Promise<Array<{ id: string; events: WebhookEventName[]; workspace: boolean }>> {
    return this.db.query(
      `SELECT w.id, w.events, o.kind = 'workspace' AS workspace FROM webhooks w JOIN users o ON o.id = w.user_id
        WHERE w.user_id = $1 AND w.active ORDER BY w.created_at, w.id`,
      [userId],
    );
  }

  /** Serializes webhook changes of one user, so two parallel creations cannot both pass the limit. */
  private async lockAndCountActive(manager: EntityManager, userId: string): Promise<number> {
    await manager.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const rows: { n: number }[] = await manager.query('SELECT count(*)::int AS n FROM webhooks WHERE user_id = $1 AND active', [
      userId,
    ]);
    return rows[0]!.n;
  }
}
