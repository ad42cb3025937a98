import type { Schemas } from '@sharedown/contract';
import { formatBytes, formatDate, type Output } from './output.js';

export type FileView = Schemas['FileDto'];
export type ShareView = Schemas['ShareDto'];
export type VisitView = Schemas['ShareVisitDto'];
export type SharePolicies = Schemas['SharePoliciesDto'];

export function shareState(share: ShareView): string {
  if (share.revokedAt) return 'revoked';
  if (share.consumedAt) return 'consumed';
  if (share.expiresAt && new Date(share.expiresAt).getTime() <= Date.now()) return 'expired';
  return 'active';
}

export function printFileTable(out: Output, files: FileView[]): void {
  out.table(
    ['ID', 'NAME', 'KIND', 'SIZE', 'SCAN', 'SHARES', 'CREATED'],
    files.map((file) => [
      file.id,
      file.name,
      file.kind,
      formatBytes(file.sizeBytes),
      scanLabel(out, file.scanStatus),
      file.shareCount ?? '',
      formatDate(file.createdAt) ?? '',
    ]),
  );
}

export function scanLabel(out: Output, status: string): string {
  if (status === 'CLEAN') return out.color.green(status);
  if (status === 'INFECTED') return out.color.red(status);
  if (status === 'SCAN_ERROR') return out.color.yellow(status);
  return out.color.dim(status);
}

export function printFile(out: Output, file: FileView): void {
  out.fields([
    ['id', file.id],
    ['name', file.name],
    ['kind', file.kind],
    ['size', `${formatBytes(file.sizeBytes)} (${file.sizeBytes} bytes)`],
    ['folder', file.folderId ?? null],
    ['shares', file.shareCount],
    ['scan', scanLabel(out, file.scanStatus) + (file.scanResult ? ` ${file.scanResult}` : '')],
    ['created', formatDate(file.createdAt)],
  ]);
}

function stateLabel(out: Output, share: ShareView): string {
  const state = shareState(share);
  return state === 'active' ? out.color.green(state) : out.color.dim(state);
}

function limit(value: number | null | undefined): string {
  return value === null || value === undefined ? 'unlimited' : String(value);
}

export function printShareTable(out: Output, shares: ShareView[]): void {
  out.table(
    ['ID', 'TOKEN', 'FILE', 'STATE', 'VISITS', 'UNIQUE', 'EXPIRES'],
    shares.map((share) => [
      share.id,
      share.token,
      share.fileName ?? share.fileId ?? '',
      stateLabel(out, share),
      share.maxVisits ? `${share.visitCount}/${share.maxVisits}` : share.visitCount,
      share.uniqueVisitCount,
      formatDate(share.expiresAt) ?? 'never',
    ]),
  );
}

export function printShare(out: Output, share: ShareView & Partial<SharePolicies>, url?: string): void {
  const flags = [
    share.hasPassword && 'password',
    share.oneTime && 'one-time',
    share.requireLogin && 'login required',
    share.oneSession && 'one session',
    share.watermarkEnabled && `watermark${share.watermarkText ? ` "${share.watermarkText}"` : ''}`,
    share.copyProtectionEnabled && 'copy protection',
    share.burnAfterReadEnabled && 'burn after read',
    share.notify && share.notify !== 'off' && `notify ${share.notify}`,
    share.agreement && `agreement${share.agreement.requireName ? ' (name required)' : ''}`,
  ].filter(Boolean);
  out.fields([
    ['id', share.id],
    ['url', url],
    ['token', share.token],
    ['file', share.fileName ? `${share.fileName} (${share.fileId})` : share.fileId],
    ['state', stateLabel(out, share)],
    ['visits', `${share.visitCount} (unique ${share.uniqueVisitCount}), max ${limit(share.maxVisits)}`],
    ['per visitor', limit(share.perVisitorMaxVisits)],
    ['per account', limit(share.perLoginUserMaxVisits)],
    ['expires', formatDate(share.expiresAt) ?? 'never'],
    ['policies', flags.length ? flags.join(', ') : 'none'],
    ['allowlist', share.emailAllowlist?.length ? share.emailAllowlist.join(', ') : undefined],
    ['agreement', share.agreement ? `sha256 ${share.agreement.sha256}` : undefined],
    ['created', formatDate(share.createdAt)],
    ['revoked', share.revokedAt ? formatDate(share.revokedAt) : undefined],
    ['consumed', share.consumedAt ? formatDate(share.consumedAt) : undefined],
    ['disabled', share.disabledAt ? `${formatDate(share.disabledAt)} (by an administrator, after an abuse report)` : undefined],
  ]);
}

export function printReportTable(
  out: Output,
  reports: Array<{ createdAt: string; status: string; ipPrefix: string; reason: string }>,
): void {
  out.table(
    ['AT', 'STATE', 'NETWORK', 'REASON'],
    reports.map((report) => [formatDate(report.createdAt) ?? report.createdAt, report.status, report.ipPrefix, report.reason]),
  );
}

export function printAcceptanceTable(
  out: Output,
  acceptances: Array<{ at: string; name: string | null; email: string | null; ipPrefix: string; agreementSha256: string }>,
): void {
  out.table(
    ['AT', 'NAME', 'EMAIL', 'NETWORK', 'AGREEMENT'],
    acceptances.map((row) => [
      formatDate(row.at) ?? row.at,
      row.name ?? '',
      row.email ?? '',
      row.ipPrefix,
      row.agreementSha256.slice(0, 12),
    ]),
  );
}

export function printVisitTable(out: Output, visits: VisitView[]): void {
  out.table(
    ['AT', 'VISITOR', 'DEVICE', 'BROWSER', 'OS', 'KIND', 'TIME', 'DEPTH', 'READ', 'REFERER'],
    visits.map((visit) => [
      formatDate(visit.at) ?? visit.at,
      visit.loginEmail ?? visit.visitorId,
      visit.device,
      visit.browser ?? '',
      visit.os ?? '',
      visit.automated ? 'automated' : 'human',
      visit.durationMs === null ? '' : `${Math.round(visit.durationMs / 1000)} s`,
      visit.scrollDepth === null ? '' : `${Math.round(visit.scrollDepth * 100)}%`,
      visit.completed ? 'yes' : '',
      visit.referer ?? '',
    ]),
  );
}
