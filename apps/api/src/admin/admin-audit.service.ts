import { Injectable } from '@nestjs/common';
import { newestFirstCursor, pageOf, pageRequestOf, DEFAULT_PAGE_LIMIT, type NewestFirstKey } from '../common/page-cursor.js';
import type { AdminAuditEventDto, AdminAuditPageDto } from './admin.dto.js';
import { AdminAuditRepository, type AdminAuditFilter, type AdminAuditRow } from './admin-audit.repository.js';

const ADMIN_AUDIT_CURSOR = newestFirstCursor('admin-audit');
// The export reads the trail in pages of this many rows, so it holds one page in memory at a time.
const EXPORT_BATCH = 1_000;

/** Everyone's audit trail, for administrators: paged for the console, streamed for the export. */
@Injectable()
export class AdminAuditService {
  constructor(private readonly repository: AdminAuditRepository) {}

  async page(query: AdminAuditFilter & { limit?: string; cursor?: string }): Promise<AdminAuditPageDto> {
    const page = pageRequestOf(ADMIN_AUDIT_CURSOR, query) ?? { limit: DEFAULT_PAGE_LIMIT, after: null };
    const found = await this.repository.page(filterOf(query), page);
    const { rows, nextCursor } = pageOf(found, page.limit, ADMIN_AUDIT_CURSOR, keyOf);
    return { events: rows.map(eventView), nextCursor };
  }

  /** The NDJSON export: every matching event, newest first, one line each, page by page. */
  async *lines(query: AdminAuditFilter): AsyncGenerator<string> {
    const filter = filterOf(query);
    let after: NewestFirstKey | null = null;
    for (;;) {
      const found: AdminAuditRow[] = await this.repository.page(filter, { limit: EXPORT_BATCH, after });
      const batch = found.slice(0, EXPORT_BATCH);
      if (batch.length) yield batch.map((row) => `${JSON.stringify(eventView(row))}\n`).join('');
      if (found.length <= EXPORT_BATCH) return;
      after = keyOf(batch[batch.length - 1]!);
    }
  }
}

function filterOf(query: AdminAuditFilter): AdminAuditFilter {
  return { userId: query.userId, action: query.action };
}

function keyOf(row: AdminAuditRow): NewestFirstKey {
  return { createdAt: row.cursor_time, id: row.id };
}

function eventView(row: AdminAuditRow): AdminAuditEventDto {
  return {
    id: row.id,
    userId: row.user_id,
    action: row.action,
    createdAt: row.created_at.toISOString(),
    actorId: row.actor_id,
    targetId: row.target_id,
    details: row.details,
    ipPrefix: row.ip_prefix,
  };
}
