import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import { DEFAULT_PAGE_LIMIT, isCursorUuid, newestFirstCursor, pageOf, pageRequestOf } from '../common/page-cursor.js';
import type { ReportPageQueryDto, ShareReportPageDto } from './reports.dto.js';
import { ReportsRepository } from './reports.repository.js';

export const SHARE_REPORTS_CURSOR = newestFirstCursor('share-reports');

/** The reports visitors filed against one of the owner's shares, and their outcome, never who decided it. */
@Injectable()
export class ShareReportsService {
  constructor(private readonly reports: ReportsRepository) {}

  async page(userId: string, shareId: string, query: ReportPageQueryDto): Promise<ShareReportPageDto> {
    const request = pageRequestOf(SHARE_REPORTS_CURSOR, query) ?? { limit: DEFAULT_PAGE_LIMIT, after: null };
    if (!isCursorUuid(shareId) || !(await this.reports.ownsShare(userId, shareId))) {
      throw AppError.notFound('分享不存在');
    }
    const found = await this.reports.pageOfShare(shareId, request);
    const { rows, nextCursor } = pageOf(found, request.limit, SHARE_REPORTS_CURSOR, (row) => ({
      createdAt: row.cursor_time,
      id: row.id,
    }));
    return {
      reports: rows.map((row) => ({
        id: row.id,
        reason: row.reason,
        ipPrefix: row.ip_prefix,
        createdAt: row.created_at.toISOString(),
        status: row.status,
        resolvedAt: row.resolved_at ? row.resolved_at.toISOString() : null,
      })),
      nextCursor,
    };
  }
}
