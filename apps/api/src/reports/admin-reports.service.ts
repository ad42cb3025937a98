import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AccountStatusService } from '../admin/account-status.service.js';
import { TokenIdentityCache } from '../auth/tokens/token-identity-cache.js';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { DEFAULT_PAGE_LIMIT, newestFirstCursor, pageOf, pageRequestOf, isCursorUuid } from '../common/page-cursor.js';
import { Metrics } from '../metrics/metrics.js';
import type { AdminReportDto, AdminReportPageDto, AdminReportsQueryDto, ReportAction, ReportStatus } from './reports.dto.js';
import { ReportsRepository, type AdminReportRow, type LockedReport } from './reports.repository.js';

export const ADMIN_REPORTS_CURSOR = newestFirstCursor('admin-reports');

const OUTCOME: Record<ReportAction, Exclude<ReportStatus, 'open'>> = {
  dismiss: 'dismissed',
  disable_share: 'share_disabled',
  disable_owner: 'owner_disabled',
};

const AUDITED: Record<ReportAction, AuditAction> = {
  dismiss: AuditAction.adminReportDismissed,
  disable_share: AuditAction.adminReportShareDisabled,
  disable_owner: AuditAction.adminReportOwnerDisabled,
};

export function toAdminReport(row: AdminReportRow): AdminReportDto {
  return {
    id: row.id,
    shareId: row.share_id,
    shareToken: row.share_token,
    fileName: row.file_name,
    shareState: row.share_state,
    owner: row.owner_id
      ? { id: row.owner_id, email: row.owner_email!, segment: row.owner_segment!, disabled: row.owner_disabled }
      : null,
    reason: row.reason,
    ipPrefix: row.ip_prefix,
    createdAt: row.created_at.toISOString(),
    status: row.status,
    resolvedAt: row.resolved_at ? row.resolved_at.toISOString() : null,
    resolvedBy: row.resolved_by ? { id: row.resolved_by, email: row.resolver_email! } : null,
    openReportsOnShare: row.open_on_share,
  };
}

/**
 * The administrators' abuse-report queue and its three outcomes. A resolution closes every open
 * report of the same share with the same outcome, and exactly one of two administrators acting on
 * the same report at once wins: the other finds it resolved and gets 409.
 */
@Injectable()
export class AdminReportsService {
  constructor(
    private readonly db: DataSource,
    private readonly reports: ReportsRepository,
    private readonly accounts: AccountStatusService,
    private readonly audit: AuditLog,
    private readonly metrics: Metrics,
    private readonly tokenIdentities: TokenIdentityCache,
  ) {}

  async page(query: AdminReportsQueryDto): Promise<AdminReportPageDto> {
    const request = pageRequestOf(ADMIN_REPORTS_CURSOR, query) ?? { limit: DEFAULT_PAGE_LIMIT, after: null };
    const found = await this.reports.page(query.status ?? 'open', request);
    const { rows, nextCursor } = pageOf(found, request.limit, ADMIN_REPORTS_CURSOR, (row) => ({
      createdAt: row.cursor_time,
      id: row.id,
    }));
    return { reports: rows.map(toAdminReport), nextCursor };
  }

  async get(id: string): Promise<AdminReportDto> {
    const row = isCursorUuid(id) ? await this.reports.find(id) : null;
    if (!row) throw AppError.notFound('举报不存在');
    return toAdminReport(row);
  }

  async resolve(actorId: string, id: string, action: ReportAction): Promise<AdminReportDto> {
    if (!isCursorUuid(id)) throw AppError.notFound('举报不存在');
    const { row, resolved } = await this.db.transaction(async (manager) => {
      const resolved = await this.resolveWithin(manager, actorId, id, action);
      return { row: (await this.reports.find(id, manager))!, resolved };
    });
    this.metrics.countReportsResolved(action, resolved);
    // Committed: the disabled owner's tokens leave this process's cache now, before the answer,
    // not when the change feed's echo of the commit arrives.
    if (action === 'disable_owner' && row.owner_id) this.tokenIdentities.forgetUser(row.owner_id);
    return toAdminReport(row);
  }

  /**
   * Locks in one order every path shares: the administration lock and the owner's row (only to
   * disable the owner, as AccountStatusService and account deletion take them), then the share
   * row (which deleting the share also takes), then the report. Answers how many reports closed.
   */
  private async resolveWithin(manager: EntityManager, actorId: string, id: string, action: ReportAction): Promise<number> {
    const target = await this.reports.target(manager, id);
    if (!target) throw AppError.notFound('举报不存在');
    if (action === 'disable_owner') {
      if (!target.ownerId) throw new AppError(ErrorCode.CONFLICT, '被举报分享的所有者账户已不存在');
      await this.accounts.lockForRemoval(manager, actorId, target.ownerId, true);
    }
    if (target.shareId) await this.reports.lockShare(manager, target.shareId);
    const report = await this.reports.lockReport(manager, id);
    if (!report) throw AppError.notFound('举报不存在');
    if (report.status !== 'open') throw new AppError(ErrorCode.CONFLICT, '该举报已被处理');
    await this.apply(manager, actorId, report, action);
    const closed = await this.reports.resolve(manager, report, OUTCOME[action], actorId);
    await this.audit.within(manager, {
      userId: actorId,
      actorId,
      action: AUDITED[action],
      targetId: report.id,
      details: { shareId: report.shareId, ownerId: report.ownerId, reportsResolved: closed.length },
    });
    return closed.length;
  }

  private async apply(manager: EntityManager, actorId: string, report: LockedReport, action: ReportAction): Promise<void> {
    if (action === 'disable_share') {
      if (!report.shareId) throw new AppError(ErrorCode.CONFLICT, '被举报的分享已不存在');
      await this.reports.disableShare(manager, report.shareId);
    } else if (action === 'disable_owner') {
      if (!report.ownerId) throw new AppError(ErrorCode.CONFLICT, '被举报分享的所有者账户已不存在');
      await this.accounts.setDisabled(actorId, report.ownerId, true, {
        manager,
        details: { reportId: report.id, shareId: report.shareId },
      });
    }
  }
}
