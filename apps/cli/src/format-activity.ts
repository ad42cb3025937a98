import type { Schemas } from '@sharedown/contract';
import { formatBytes, formatDate, type Output } from './output.js';

export type ShareStats = Schemas['ShareAnalyticsDto'];
export type NotificationView = Schemas['NotificationDto'];
export type ActivityEvent = Schemas['AuditEventDto'];

const BAR_WIDTH = 30;

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function bar(value: number, max: number): string {
  if (value <= 0 || max <= 0) return '';
  return '█'.repeat(Math.max(1, Math.round((value / max) * BAR_WIDTH)));
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Name/count rows as aligned lines with bars; `empty` when there are none. */
function printCounts(out: Output, title: string, rows: { name: string; visits: number }[], empty: string): void {
  out.line();
  out.line(out.color.bold(title));
  if (!rows.length) {
    out.line(`  ${out.color.dim(empty)}`);
    return;
  }
  const width = Math.max(...rows.map((row) => row.name.length));
  const max = Math.max(...rows.map((row) => row.visits));
  for (const row of rows) out.line(`  ${row.name.padEnd(width)}  ${String(row.visits).padStart(5)}  ${bar(row.visits, max)}`);
}

/** `shares stats`: the period's totals, engagement, then visits per day, depth, referrers and devices. */
export function printShareStats(out: Output, stats: ShareStats): void {
  const first = stats.days[0]?.day;
  const last = stats.days.at(-1)?.day;
  const engagement = stats.measuredVisits
    ? [
        `${stats.measuredVisits} of ${stats.sampledVisits} measured`,
        stats.medianDurationMs !== null ? `median time ${formatDuration(stats.medianDurationMs)}` : null,
        stats.completionRate !== null ? `${Math.round(stats.completionRate * 100)}% read to the end` : null,
      ]
        .filter(Boolean)
        .join(', ')
    : out.color.dim('no visit reported its engagement');
  out.fields([
    [
      'period',
      first && last ? `${plural(stats.days.length, 'day')}, ${first} to ${last} (UTC)` : plural(stats.days.length, 'day'),
    ],
    ['visits', `${stats.humanVisits} by people, ${stats.automatedVisits} automated`],
    ['engagement', engagement],
  ]);

  const busy = stats.days.filter((day) => day.human + day.automated > 0);
  out.line();
  out.line(out.color.bold('Visits per day'));
  if (!busy.length) out.line(`  ${out.color.dim('no visits in the period')}`);
  const max = Math.max(0, ...busy.map((day) => day.human + day.automated));
  for (const day of busy) {
    const automated = day.automated ? out.color.dim(` (+${day.automated} automated)`) : '';
    out.line(`  ${day.day}  ${String(day.human).padStart(5)}${automated}  ${bar(day.human + day.automated, max)}`);
  }

  if (stats.measuredVisits) {
    printCounts(
      out,
      'Depth reached',
      stats.depthHistogram.map((visits, bucket) => ({ name: `${bucket * 10}-${bucket * 10 + 10}%`, visits })),
      '',
    );
  }
  printCounts(
    out,
    'Top referrers',
    stats.topReferrers.map((row) => ({ name: row.name || '(direct)', visits: row.visits })),
    'none',
  );
  printCounts(out, 'Devices', stats.devices, 'none');
  printSections(out, stats.sections);
}

/**
 * Reading by section, a table per document: readers (visits that had the section on screen a
 * second or more; where the count falls, readers stop) and their median seconds (where they linger).
 */
function printSections(out: Output, sections: ShareStats['sections']): void {
  out.line();
  out.line(out.color.bold('Reading by section'));
  if (!sections.length) {
    out.line(`  ${out.color.dim('no sections (a text document, or nothing read yet)')}`);
    return;
  }
  const files = new Map<string, ShareStats['sections']>();
  for (const section of sections) files.set(section.fileId, [...(files.get(section.fileId) ?? []), section]);
  for (const rows of files.values()) {
    if (files.size > 1) out.line(`  ${rows[0]!.fileName}`);
    const max = Math.max(...rows.map((row) => row.readers));
    out.table(
      ['#', 'heading', 'readers', 'median s', ''],
      rows.map((row) => [
        row.index,
        row.heading || out.color.dim('(empty heading)'),
        row.readers,
        row.medianSeconds === null ? '-' : row.medianSeconds.toFixed(1),
        bar(row.readers, max),
      ]),
    );
  }
}

/** What one notification says, in a line. */
export function notificationDetail(notification: NotificationView): string {
  const data = notification.data;
  if (notification.kind === 'daily_digest') {
    const shares = data.shares?.length ?? 0;
    return `${data.day ?? ''}: ${data.visits ?? 0} by people, ${data.automatedVisits ?? 0} automated, over ${plural(shares, 'link')}`;
  }
  if (notification.kind === 'request_upload') {
    return [
      `upload to “${data.requestTitle ?? ''}”`,
      data.uploaderName ? `by ${data.uploaderName}` : null,
      data.sizeBytes !== undefined ? formatBytes(data.sizeBytes) : null,
      data.scanStatus === 'INFECTED' ? 'infected, quarantined' : data.scanStatus === 'CLEAN' ? 'clean' : null,
    ]
      .filter(Boolean)
      .join(' · ');
  }
  const client = [data.browser, data.os && `on ${data.os}`].filter(Boolean).join(' ');
  return [
    data.visitCount !== undefined ? `visit #${data.visitCount}` : 'visit',
    [client, data.device].filter(Boolean).join(', '),
    data.ipPrefix,
    data.referer ? `from ${data.referer}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

const KIND_LABELS: Record<NotificationView['kind'], string> = {
  first_visit: 'first visit',
  visit: 'visit',
  daily_digest: 'daily digest',
  request_upload: 'request upload',
};

export function printNotificationTable(out: Output, notifications: NotificationView[]): void {
  out.table(
    ['', 'AT', 'KIND', 'FILE', 'DETAIL'],
    notifications.map((notification) => [
      notification.readAt ? '' : out.color.cyan('●'),
      formatDate(notification.createdAt) ?? notification.createdAt,
      KIND_LABELS[notification.kind] ?? notification.kind,
      notification.fileName ?? '',
      notificationDetail(notification),
    ]),
  );
}

const DETAILS_WIDTH = 80;

/** An event's details as `key=value` pairs, cut to one readable line. */
export function activityDetails(details: Record<string, unknown>): string {
  const text = Object.entries(details)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return text.length > DETAILS_WIDTH ? `${text.slice(0, DETAILS_WIDTH - 1)}…` : text;
}

export function printActivityTable(out: Output, events: ActivityEvent[]): void {
  out.table(
    ['AT', 'ACTION', 'TARGET', 'DETAILS', 'NETWORK', 'BY'],
    events.map((event) => [
      formatDate(event.createdAt) ?? event.createdAt,
      event.action,
      event.targetId ?? '',
      activityDetails(event.details),
      event.ipPrefix ?? '',
      event.actorId ? 'administrator' : '',
    ]),
  );
}
