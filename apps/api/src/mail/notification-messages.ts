import type { NotificationDto } from '../notifications/notification.dto.js';
import type { FoldedVisits } from '../notifications/notifications.repository.js';
import { hostOf, htmlOf, textOf, type MailMessage, type Part } from './mail-messages.js';

function utc(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** Whether a referrer is one of the service's own pages (the link itself, a form of it): it says nothing of where the visitor came from. */
function fromOwnSite(referer: string, ownOrigins: readonly string[]): boolean {
  try {
    return ownOrigins.includes(new URL(referer).origin);
  } catch {
    return false;
  }
}

/** The visit's details, one line each, in the order the console shows them; absent ones left out. */
function visitLines(
  notification: NotificationDto,
  labels: { at: string; network: string; referer: string; browser: string },
  ownOrigins: readonly string[],
): string[] {
  const { data } = notification;
  const agent = [data.browser, data.os, data.device].filter(Boolean).join(' · ');
  const referer = data.referer && !fromOwnSite(data.referer, ownOrigins) ? data.referer : null;
  return [
    `${labels.at}: ${utc(notification.createdAt)}`,
    ...(data.ipPrefix ? [`${labels.network}: ${data.ipPrefix}`] : []),
    ...(referer ? [`${labels.referer}: ${referer}`] : []),
    ...(agent ? [`${labels.browser}: ${agent}`] : []),
  ];
}

/**
 * A notification as mail. No per-user language exists, so like every message of the service it
 * says everything in Chinese, then in English. It names the file and links to the share's page
 * in the console; it never carries the document or the link a visitor opens.
 */
export function notificationMessage(notification: NotificationDto, publicUrl: string, renderUrl = publicUrl): MailMessage {
  const host = hostOf(publicUrl);
  const ownOrigins = [new URL(publicUrl).origin, new URL(renderUrl).origin];
  const file = notification.fileName ?? '';
  const link = notification.shareId ? `${publicUrl}/shares/${notification.shareId}` : `${publicUrl}/shares`;
  const count = notification.data.visitCount ?? 0;
  let subject: string;
  let parts: Part[];
  switch (notification.kind) {
    case 'first_visit':
      subject = `首次访问 / First visit: ${file}`;
      parts = [
        {
          lead: `你分享的「${file}」第一次被打开了。`,
          rest: [
            ...visitLines(notification, { at: '时间', network: '网段', referer: '来源', browser: '浏览器' }, ownOrigins),
            link,
          ],
        },
        {
          lead: `Your shared document "${file}" was opened for the first time.`,
          rest: [
            ...visitLines(notification, { at: 'When', network: 'Network', referer: 'Referrer', browser: 'Browser' }, ownOrigins),
            link,
          ],
        },
      ];
      break;
    case 'visit':
      subject = `新访问 / New visit: ${file}`;
      parts = [
        {
          lead: `你分享的「${file}」被打开了（第 ${count} 次访问）。`,
          rest: [
            ...visitLines(notification, { at: '时间', network: '网段', referer: '来源', browser: '浏览器' }, ownOrigins),
            link,
          ],
        },
        {
          lead: `Your shared document "${file}" was opened (visit ${count}).`,
          rest: [
            ...visitLines(notification, { at: 'When', network: 'Network', referer: 'Referrer', browser: 'Browser' }, ownOrigins),
            link,
          ],
        },
      ];
      break;
    case 'request_upload': {
      const title = notification.data.requestTitle ?? '';
      const from = notification.data.uploaderName ?? '';
      const infected = notification.data.scanStatus === 'INFECTED';
      const requestLink = `${publicUrl}/requests/${notification.data.requestId ?? ''}`;
      subject = `${infected ? '上传被隔离 / Upload quarantined' : '收到上传 / New upload'}: ${file}`;
      parts = [
        {
          lead: infected
            ? `文档请求「${title}」收到 ${from} 上传的「${file}」，杀毒扫描判定不安全，已隔离。`
            : `文档请求「${title}」收到 ${from} 上传的「${file}」，等待你审核。`,
          rest: [requestLink],
        },
        {
          lead: infected
            ? `Your document request "${title}" received "${file}" from ${from}; the virus scanner found it unsafe and it was quarantined.`
            : `Your document request "${title}" received "${file}" from ${from}. It awaits your review.`,
          rest: [requestLink],
        },
      ];
      break;
    }
    case 'daily_digest': {
      const day = notification.data.day ?? '';
      const shares = notification.data.shares ?? [];
      subject = `每日访问摘要 / Daily visits: ${day}`;
      parts = [
        {
          lead: `${day}（UTC）你的分享共被访问 ${notification.data.visits ?? 0} 次：`,
          rest: [...shares.map((entry) => `「${entry.fileName}」：${entry.visits} 次`), `${publicUrl}/shares`],
        },
        {
          lead: `Your shares had ${notification.data.visits ?? 0} visits on ${day} (UTC):`,
          rest: [...shares.map((entry) => `"${entry.fileName}": ${entry.visits}`), `${publicUrl}/shares`],
        },
      ];
      break;
    }
  }
  return { subject: `${subject} · ${host}`, text: textOf(parts), html: htmlOf(parts) };
}

/**
 * The visits of one share that went over the hourly mail cap, as one mail: how many, between
 * when and when, and the share's page in the console, where each one is listed.
 */
export function visitSummaryMessage(folded: FoldedVisits, publicUrl: string): MailMessage {
  const host = hostOf(publicUrl);
  const file = folded.fileName ?? '';
  const count = folded.ids.length;
  const from = utc(folded.first.toISOString());
  const to = utc(folded.last.toISOString());
  const link = `${publicUrl}/shares/${folded.shareId}`;
  const parts: Part[] = [
    {
      lead: `你分享的「${file}」又被打开了 ${count} 次（${from} 至 ${to}）。为免邮件过多，这些访问合并在这一封邮件里；每次访问都列在控制台的通知和访问记录中。`,
      rest: [link],
    },
    {
      lead: `Your shared document "${file}" was opened ${count} more times (${from} to ${to}). To keep your inbox quiet, these visits come in this one mail; each is listed in the console's notifications and visit log.`,
      rest: [link],
    },
  ];
  return { subject: `访问汇总 / ${count} more visits: ${file} · ${host}`, text: textOf(parts), html: htmlOf(parts) };
}
