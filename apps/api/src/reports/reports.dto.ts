import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { CURSOR_MESSAGE, LIMIT_MESSAGE } from '../common/page-cursor.js';

export const REPORT_STATUSES = ['open', 'dismissed', 'share_disabled', 'owner_disabled'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** What the administrators' queue shows: the open reports, the resolved ones, or both. */
export const REPORT_FILTERS = ['open', 'resolved', 'all'] as const;
export type ReportFilter = (typeof REPORT_FILTERS)[number];

export const REPORT_ACTIONS = ['dismiss', 'disable_share', 'disable_owner'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** The state of the reported link as the administrator sees it now. */
export const REPORTED_SHARE_STATES = ['active', 'revoked', 'disabled', 'deleted'] as const;
export type ReportedShareState = (typeof REPORTED_SHARE_STATES)[number];

export class ReportPageQueryDto {
  // Checked, with cursor, by pageRequestOf (documented by ApiPageQueries on the routes).
  @IsOptional()
  @IsString({ message: LIMIT_MESSAGE })
  limit?: string;

  @IsOptional()
  @IsString({ message: CURSOR_MESSAGE })
  cursor?: string;
}

export class AdminReportsQueryDto extends ReportPageQueryDto {
  @IsOptional()
  @IsIn(REPORT_FILTERS, { message: `status 必须是 ${REPORT_FILTERS.join('、')} 之一` })
  status?: ReportFilter;
}

export class ResolveReportDto {
  @ApiProperty({
    enum: REPORT_ACTIONS,
    description:
      'dismiss: nothing wrong; disable_share: the link is revoked for good and answers 410 saying why; ' +
      "disable_owner: the owner's account is disabled (sessions end, tokens answer 401, every link answers 410)",
  })
  @IsIn(REPORT_ACTIONS, { message: `action 必须是 ${REPORT_ACTIONS.join('、')} 之一` })
  action: ReportAction;
}

export class ReportedOwnerDto {
  @ApiProperty() id: string;
  @ApiProperty() email: string;
  @ApiProperty({ description: "the owner's public URL segment" }) segment: string;
  @ApiProperty({ description: 'the account is disabled' }) disabled: boolean;
}

export class ReportResolverDto {
  @ApiProperty() id: string;
  @ApiProperty() email: string;
}

/** A report as administrators see it. */
export class AdminReportDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: String, nullable: true, description: 'null once the share itself was deleted (its file purged)' })
  shareId: string | null;
  @ApiProperty({ description: 'the token (or slug) of the reported link, kept after the share is gone' }) shareToken: string;
  @ApiProperty({ description: 'the shared file’s name (as it was when reported, once the share is gone)' }) fileName: string;
  @ApiProperty({ enum: REPORTED_SHARE_STATES, description: 'the reported link now' }) shareState: ReportedShareState;
  @ApiProperty({ type: ReportedOwnerDto, nullable: true, description: 'null once the account was deleted' })
  owner: ReportedOwnerDto | null;
  @ApiProperty() reason: string;
  @ApiProperty({ description: "the reporter's masked network (IPv4 /24, IPv6 /48), never the address" }) ipPrefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ enum: REPORT_STATUSES }) status: ReportStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) resolvedAt: string | null;
  @ApiProperty({
    type: ReportResolverDto,
    nullable: true,
    description: 'the administrator who resolved it (null while open, or once that account is gone)',
  })
  resolvedBy: ReportResolverDto | null;
  @ApiProperty({ type: 'integer', description: 'open reports on the same share, this one included while open' })
  openReportsOnShare: number;
}

export class AdminReportPageDto {
  @ApiProperty({ type: [AdminReportDto], description: 'newest first' }) reports: AdminReportDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as cursor for the next page; null on the last one' })
  nextCursor: string | null;
}

/** A report as the owner of the reported share sees it: never who resolved it. */
export class ShareReportDto {
  @ApiProperty() id: string;
  @ApiProperty() reason: string;
  @ApiProperty({ description: "the reporter's masked network (IPv4 /24, IPv6 /48), never the address" }) ipPrefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ enum: REPORT_STATUSES }) status: ReportStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) resolvedAt: string | null;
}

export class ShareReportPageDto {
  @ApiProperty({ type: [ShareReportDto], description: 'newest first' }) reports: ShareReportDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as cursor for the next page; null on the last one' })
  nextCursor: string | null;
}
