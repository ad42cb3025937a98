import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { affectedCount, rows } from '../common/sql.js';
import type { Columns } from '../database/rows.js';
import type { AuditAction } from './audit-action.js';

export interface AuditEntry {
  /** The account the action concerns. */
  userId: string;
  action: AuditAction;
  /** Who acted when it was not the account itself (an administrator). */
  actorId?: string | null;
  /** The token, webhook, share, file, folder or session acted on. */
  targetId?: string | null;
  /** Names and counts that help the reader; never a secret. */
  details?: Record<string, string | number | boolean | null>;
  /** The client's masked network (/24, /48), never its address. */
  ipPrefix?: string | null;
}

export interface AuditRecord {
  id: string;
  userId: string;
  actorId: string | null;
  /** The address of whoever acted: the actor, else the account itself (null once that account is deleted). */
  actorEmail?: string | null;
  action: AuditAction;
  targetId: string | null;
  details: Record<string, unknown>;
  ipPrefix: string | null;
  createdAt: Date;
}

type AuditRow = Columns<
  'audit_events',
  'id' | 'user_id' | 'actor_id' | 'action' | 'target_id' | 'details' | 'ip_prefix' | 'created_at',
  { action: AuditAction; details: Record<string, unknown> }
>;

@Injectable()
export class AuditRepository {
  constructor(private readonly db: DataSource) {}

  async insert(entry: AuditEntry, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.query(
      `INSERT INTO audit_events (user_id, actor_id, action, target_id, details, ip_prefix) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        entry.userId,
        entry.actorId ?? null,
        entry.action,
        entry.targetId ?? null,
        JSON.stringify(entry.details ?? {}),
        entry.ipPrefix ?? null,
      ],
    );
  }

  /**
   * One page of an account's (or workspace's) events, newest first; after the event `before` when
   * given; only those `actor` acted in when given (an entry without an actor was the account's own).
   */
  async page(userId: string, limit: number, before?: string, actor?: string): Promise<AuditRecord[]> {
    const found = await rows<AuditRow & { actor_email: string | null }>(
      this.db,
      `SELECT e.id, e.user_id, e.actor_id, e.action, e.target_id, e.details, e.ip_prefix, e.created_at, a.email AS actor_email
       FROM audit_events e LEFT JOIN users a ON a.id = coalesce(e.actor_id, e.user_id)
       WHERE e.user_id = $1
         AND ($2::uuid IS NULL OR (e.created_at, e.id) < (SELECT c.created_at, c.id FROM audit_events c WHERE c.id = $2::uuid AND c.user_id = $1))
         AND ($4::uuid IS NULL OR coalesce(e.actor_id, e.user_id) = $4::uuid)
       ORDER BY e.created_at DESC, e.id DESC LIMIT $3`,
      [userId, before ?? null, limit, actor ?? null],
    );
    return found.map((row) => ({
      id: row.id,
      userId: row.user_id,
      actorId: row.actor_id,
      actorEmail: row.actor_email,
      action: row.action,
      targetId: row.target_id,
      details: row.details,
      ipPrefix: row.ip_prefix,
      createdAt: row.created_at,
    }));
  }

  /** Deletes events older than `days` days, in batches; answers how many. */
  async deleteOlderThan(days: number, batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const count = affectedCount(
        await this.db.query(
          `DELETE FROM audit_events WHERE id IN (
             SELECT id FROM audit_events WHERE created_at < now() - make_interval(days => $1) LIMIT $2)`,
          [days, batch],
        ),
      );
      total += count;
      if (count < batch) return total;
    }
  }
}
