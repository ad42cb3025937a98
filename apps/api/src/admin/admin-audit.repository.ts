import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuditAction } from '../audit/audit-action.js';
import { rows } from '../common/sql.js';
import type { Columns } from '../database/rows.js';
import { cursorTimeSql, newestFirstAfterSql, type NewestFirstKey, type PageRequest } from '../common/page-cursor.js';

export interface AdminAuditFilter {
  /** Events on this account's trail, and administrator actions naming it as their target. */
  userId?: string;
  action?: AuditAction;
}

export type AdminAuditRow = Columns<
  'audit_events',
  'id' | 'user_id' | 'actor_id' | 'action' | 'target_id' | 'details' | 'ip_prefix' | 'created_at',
  { action: AuditAction; details: Record<string, unknown> }
> & {
  /** Computed: cursorTimeSql('e.created_at'). */
  cursor_time: string;
};

/** The audit trail across every account, for administrators. */
@Injectable()
export class AdminAuditRepository {
  constructor(private readonly db: DataSource) {}

  /** One page newest first and one row more (whether another follows); ordered by (created_at, id) like the index. */
  async page(filter: AdminAuditFilter, page: PageRequest<NewestFirstKey>): Promise<AdminAuditRow[]> {
    const params: unknown[] = [];
    const where: string[] = ['true'];
    if (filter.userId) {
      params.push(filter.userId);
      // Two index ranges: the account's own trail, and administrator actions that name it.
      where.push(`(e.user_id = $${params.length}::uuid OR (e.actor_id IS NOT NULL AND e.target_id = $${params.length}::text))`);
    }
    if (filter.action) {
      params.push(filter.action);
      where.push(`e.action = $${params.length}`);
    }
    if (page.after) {
      params.push(page.after.createdAt, page.after.id);
      where.push(newestFirstAfterSql(params.length - 1, params.length, 'e.'));
    }
    params.push(page.limit + 1);
    return rows<AdminAuditRow>(
      this.db,
      `SELECT e.id, e.user_id, e.actor_id, e.action, e.target_id, e.details, e.ip_prefix, e.created_at,
              ${cursorTimeSql('e.created_at')} AS cursor_time
       FROM audit_events e WHERE ${where.join(' AND ')}
       ORDER BY e.created_at DESC, e.id DESC LIMIT $${params.length}`,
      params,
    );
  }
}
