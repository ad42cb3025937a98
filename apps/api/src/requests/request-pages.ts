import { escapeHtml } from '../common/text/html.js';
import { messagePage, type PageContext } from '../viewer/pages/viewer-pages.js';
import { REQUEST_LIMITS } from './request.dto.js';
import { formatMessage, requestText } from './request-text.js';

/** Bytes as the visitor reads them: "10 MB", "512 kB". */
export function sizeText(locale: string, bytes: number): string {
  const units = ['byte', 'kilobyte', 'megabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}

function dateText(locale: string, date: Date): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date) + ' UTC';
}

/** What the request page shows and binds its form to. */
export interface RequestPageOptions {
  action: string;
  title: string;
  owner: string;
  /** The instructions, sanitized HTML of their Markdown ('' when there are none). */
  instructionsHtml: string;
  taken: number;
  max: number;
  maxBytes: number;
  expiresAt: Date | null;
  /** The uploader's address when the request has an allowlist (the signed-in, proven one); else null. */
  fixedEmail: string | null;
  problem: string | null;
  /** What was typed before, when the page comes back with a problem. */
  typed: { name: string; email: string; message: string; fileName: string };
}

/** The public page of an open request: who asks, what, within which limits, and the upload form. */
export function requestPage(context: PageContext, options: RequestPageOptions): string {
  const words = requestText(context.text.locale);
  const locale = context.text.locale;
  const facts = [
    formatMessage(words.page.received, { taken: options.taken, max: options.max }),
    formatMessage(words.page.largest, { size: sizeText(locale, options.maxBytes) }),
    ...(options.expiresAt ? [formatMessage(words.page.until, { date: dateText(locale, options.expiresAt) })] : []),
  ];
  const email =
    options.fixedEmail !== null
      ? `<label>${escapeHtml(words.form.email)}<input type="email" name="email" value="${escapeHtml(options.fixedEmail)}" readonly></label>`
      : `<label>${escapeHtml(words.form.emailOptional)}<input type="email" name="email" maxlength="254" autocomplete="email" value="${escapeHtml(options.typed.email)}"></label>`;
  const problem = options.problem ? `<p class="sd-error" role="alert">${escapeHtml(options.problem)}</p>` : '';
  const form = `<p class="sd-request-owner">${escapeHtml(formatMessage(words.page.askedBy, { owner: options.owner }))}</p>
${options.instructionsHtml ? `<div class="sd-agreement sd-request-instructions">${options.instructionsHtml}</div>` : ''}
<ul class="sd-request-facts">${facts.map((fact) => `<li>${escapeHtml(fact)}</li>`).join('')}</ul>
<form method="post" action="${escapeHtml(options.action)}" enctype="multipart/form-data" class="sd-request-form">${problem}
<p>${escapeHtml(words.page.kinds)}</p>
<label>${escapeHtml(words.form.file)}<input type="file" name="file" accept=".md,.markdown,.html,.htm,.txt,.text,text/plain,text/markdown,text/html"></label>
<fieldset><legend>${escapeHtml(words.form.orPaste)}</legend>
<label>${escapeHtml(words.form.fileName)}<input type="text" name="fileName" maxlength="255" value="${escapeHtml(options.typed.fileName)}"></label>
<label>${escapeHtml(words.form.text)}<textarea name="text" rows="6"></textarea></label></fieldset>
<label>${escapeHtml(words.form.name)}<input type="text" name="name" required maxlength="${REQUEST_LIMITS.uploaderName.max}" autocomplete="name" value="${escapeHtml(options.typed.name)}"></label>
${email}
<label>${escapeHtml(words.form.message)}<textarea name="message" rows="3" maxlength="${REQUEST_LIMITS.message.max}">${escapeHtml(options.typed.message)}</textarea></label>
<button type="submit">${escapeHtml(words.form.submit)}</button></form>`;
  return messagePage(context, options.title, '', form).replace('<p></p>', '');
}

/** Closed, expired or full: the request takes no more uploads. */
export function requestEndedPage(context: PageContext, state: 'closed' | 'expired' | 'full'): string {
  const words = requestText(context.text.locale)[state];
  return messagePage(context, words.title, words.body);
}

export interface ReceiptPageOptions {
  requestTitle: string;
  fileName: string;
  sizeBytes: number;
  at: Date;
  scanStatus: string | null;
}

/** The uploader's receipt: their own upload, and whether it passed the scan. */
export function receiptPage(context: PageContext, options: ReceiptPageOptions): string {
  const locale = context.text.locale;
  const words = requestText(locale).receipt;
  const status =
    options.scanStatus === 'INFECTED' ? words.infected : options.scanStatus === 'CLEAN' ? words.received : words.checking;
  const rows: Array<[string, string]> = [
    [words.request, options.requestTitle],
    [words.file, options.fileName],
    [words.size, sizeText(locale, options.sizeBytes)],
    [words.at, dateText(locale, options.at)],
    [words.status, status],
  ];
  const list = `<dl class="sd-receipt">${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>
${options.scanStatus === 'CLEAN' || options.scanStatus === 'INFECTED' ? '' : `<p>${escapeHtml(words.refresh)}</p>`}`;
  return messagePage(context, words.title, words.intro, list);
}
