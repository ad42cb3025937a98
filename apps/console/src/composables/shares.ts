export type ShareStatus = 'active' | 'expired' | 'consumed' | 'revoked';

interface ShareTimes {
  revokedAt?: string | null;
  consumedAt?: string | null;
  expiresAt?: string | null;
}

/** Revocation wins over consumption, which wins over expiry: the reason a visitor is turned away. */
export function shareStatus(share: ShareTimes, now = Date.now()): ShareStatus {
  if (share.revokedAt) return 'revoked';
  if (share.consumedAt) return 'consumed';
  if (share.expiresAt && new Date(share.expiresAt).getTime() <= now) return 'expired';
  return 'active';
}

export const shareStatusClass: Record<ShareStatus, string> = {
  active: 'badge-success',
  expired: 'badge-warning',
  consumed: 'badge-info',
  revoked: 'badge-danger',
};

/** The view link of a share on this console's origin (the API answers the same with PUBLIC_URL). */
export function shareLink(share: { ownerSegment?: string; token: string }, origin = window.location.origin): string {
  return share.ownerSegment ? `${origin}/s/${share.ownerSegment}/${share.token}` : `${origin}/s/${share.token}`;
}

export interface VisitBucket {
  hour: string;
  visits: number;
}

/** Hourly buckets folded into days (local time) when the range is too long to read hour by hour. */
export function bucketsByDay(buckets: VisitBucket[]): VisitBucket[] {
  const days = new Map<string, VisitBucket>();
  for (const bucket of buckets) {
    const date = new Date(bucket.hour);
    const start = new Date(date.getFullYear(), date.getMonth(), date.getDate());
    const key = start.toISOString();
    const existing = days.get(key);
    if (existing) existing.visits += bucket.visits;
    else days.set(key, { hour: key, visits: bucket.visits });
  }
  return [...days.values()];
}

export interface PolicyLine {
  key: string;
  params?: Record<string, unknown>;
}

interface SharePolicy extends ShareTimes {
  hasPassword: boolean;
  maxVisits?: number | null;
  perVisitorMaxVisits?: number | null;
  perLoginUserMaxVisits?: number | null;
  oneTime: boolean;
  requireLogin?: boolean;
  watermarkEnabled?: boolean;
  watermarkText?: string | null;
  copyProtectionEnabled?: boolean;
  burnAfterReadEnabled?: boolean;
  notify?: 'off' | 'first' | 'every' | 'daily';
  agreement?: { requireName: boolean } | null;
  folderId?: string;
}

/** The policies of an existing share, as short lines for its detail page. */
export function describePolicies(share: SharePolicy): PolicyLine[] {
  const lines: PolicyLine[] = [];
  lines.push({ key: share.requireLogin ? 'summary.login' : 'summary.anyone' });
  if (share.hasPassword) lines.push({ key: 'summary.password' });
  if (share.agreement) lines.push({ key: share.agreement.requireName ? 'agreementForm.summaryNamed' : 'agreementForm.summary' });
  if (share.oneTime) lines.push({ key: 'summary.oneTime' });
  else if (share.maxVisits) lines.push({ key: 'summary.maxVisits', params: { count: share.maxVisits } });
  if (share.perVisitorMaxVisits) lines.push({ key: 'summary.perVisitor', params: { count: share.perVisitorMaxVisits } });
  if (share.perLoginUserMaxVisits) lines.push({ key: 'summary.perUser', params: { count: share.perLoginUserMaxVisits } });
  if (share.watermarkEnabled) {
    lines.push(
      share.watermarkText
        ? { key: 'summary.watermarkText', params: { text: share.watermarkText } }
        : { key: 'summary.watermarkAuto' },
    );
  }
  if (share.copyProtectionEnabled) lines.push({ key: 'summary.copyProtection' });
  if (share.burnAfterReadEnabled) lines.push({ key: 'summary.burn' });
  if (share.notify && share.notify !== 'off') lines.push({ key: `notifications.summary.${share.notify}` });
  if (share.folderId) lines.push({ key: 'collections.summary' });
  return lines;
}
