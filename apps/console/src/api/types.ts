import type { Schemas } from '@sharedown/contract';

export type ConsoleUser = Schemas['ConsoleUserDto'];
export type ApiToken = Schemas['ApiTokenDto'];
export type Webhook = Schemas['WebhookDto'];
export type WebhookDelivery = Schemas['WebhookDeliveryDto'];
export type WebhookEvent = Webhook['events'][number];
export const WEBHOOK_EVENTS: WebhookEvent[] = [
  'share_visited',
  'share_reported',
  'share_expiring_soon',
  'request_upload_received',
];
export type Share = Schemas['ShareDto'];
export type ShareVisits = Schemas['ShareVisitsDto'];
export type ShareAnalytics = Schemas['ShareAnalyticsDto'];
export type ShareVisit = Schemas['ShareVisitDto'];
export type ShareUpdate = Schemas['UpdateShareDto'];
export type SharePolicies = Schemas['SharePoliciesDto'];
export type AgreementInput = Schemas['AgreementInputDto'];
export type Acceptance = Schemas['ShareAcceptanceDto'];
export type DocumentRead = Schemas['DocumentReadDto'];
export type ShareNotify = Schemas['ShareNotify'];
export const SHARE_NOTIFY: ShareNotify[] = ['off', 'first', 'every', 'daily'];
export type AppNotification = Schemas['NotificationDto'];
export type NotificationPage = Schemas['NotificationPageDto'];
export type ConsoleFile = Schemas['ConsoleFileDto'];
export type FileVersion = Schemas['FileVersionDto'];
export type FileContent = Schemas['FileContentDto'];
export type FolderNode = Schemas['FolderNodeDto'];
export type Folder = Schemas['FolderDto'];
export type TrashList = Schemas['TrashListDto'];
export type TrashFile = Schemas['TrashFileDto'];
export type TrashFolder = Schemas['TrashFolderDto'];
export type ScanStatus = ConsoleFile['scanStatus'];
export type FileKind = ConsoleFile['kind'];
export type ValidateResult = Schemas['ValidateResultDto'];
export type ValidationIssue = Schemas['ValidationIssueDto'];
export type ConsoleUploadResult = Schemas['ConsoleUploadResultDto'];
export type AuditEvent = Schemas['AuditEventDto'];
export type AuditAction = AuditEvent['action'];
export type AdminReport = Schemas['AdminReportDto'];
export type ReportStatus = AdminReport['status'];
export type ShareReport = Schemas['ShareReportDto'];
