import { LANGUAGE_NAMES, LOCALES } from '@sharedown/i18n';
import { LRUCache } from 'lru-cache';
import { escapeHtml } from '../../common/text/html.js';
import type { FileKind } from '../../shares/share-row.js';
import type { PageParts } from '../visitor/viewer-answer.js';
import type { ViewerText } from './viewer-text.js';

export interface PageAssets {
  css: string;
  js: string;
}

/** What every viewer page is built with: its assets, its language, and where the language switch returns to. */
export interface PageContext {
  assets: PageAssets;
  text: ViewerText;
  /** A viewer path to show again after a language switch; null for pages without the switch. */
  returnPath: string | null;
  /** Who shares the link, by the name its address carries; absent on pages of no one's link. */
  sender?: string | null;
}

export const LANGUAGE_SWITCH = '/s/_lang';

interface LayoutOptions {
  title: string;
  body: string;
  htmlClass?: string;
  bodyAttributes?: string;
  script?: boolean;
  /** Extra elements of the head (Open Graph tags). */
  head?: string;
}

function layout(context: PageContext, options: LayoutOptions): string {
  const htmlClass = options.htmlClass ? ` class="${options.htmlClass}"` : '';
  const script = options.script ? `<script src="${context.assets.js}" defer></script>` : '';
  return `<!doctype html>
<html lang="${context.text.locale}"${htmlClass}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow,noarchive"><meta name="color-scheme" content="light dark">
<title>${escapeHtml(options.title)}</title>${options.head ?? ''}<link rel="stylesheet" href="${context.assets.css}">${script}</head>
<body${options.bodyAttributes ?? ''}>
${options.body}
</body></html>`;
}

/**
 * Links to the same page in each language, each named in itself. Plain links to a route that only
 * sets the language cookie and sends the visitor back, so switching never submits a form (never
 * reveals a one-time link).
 */
function languageSwitch(context: PageContext): string {
  if (context.returnPath === null) return '';
  const next = encodeURIComponent(context.returnPath);
  const links = LOCALES.map((tag) =>
    tag === context.text.locale
      ? `<span lang="${tag}" aria-current="true">${LANGUAGE_NAMES[tag]}</span>`
      : `<a href="${LANGUAGE_SWITCH}?to=${tag}&amp;next=${next}" lang="${tag}" hreflang="${tag}" rel="nofollow" data-lang="${tag}">${LANGUAGE_NAMES[tag]}</a>`,
  );
  return `<nav class="sd-lang" aria-label="${escapeHtml(context.text.messages.switcher.label)}">${links.join('')}</nav>`;
}

/** "Shared by maria-kelle with Sharedown": the visitor sees whose link this is before typing anything. */
function senderLine(context: PageContext): string {
  if (!context.sender) return '';
  return `<div class="sd-from">${escapeHtml(context.text.format(context.text.messages.sender.from, { name: context.sender }))}</div>`;
}

function problemOf(error: string | null): string {
  return error ? `<p class="sd-error" role="alert">${escapeHtml(error)}</p>` : '';
}

/** A short page with a heading, a sentence and optional extra markup (forms, links). */
export function messagePage(context: PageContext, title: string, message: string, extra = ''): string {
  return layout(context, {
    title,
    body: `<main class="sd-card">${senderLine(context)}<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${extra}</main>\n${languageSwitch(context)}`,
  });
}

/**
 * What a link preview (a chat app, a mail scanner) gets: Open Graph tags naming the document by its
 * file name, and none of its content, in the language the preview agent asked for.
 */
/** A link preview card; `fileName` null when the link does not name its file to strangers. */
export function linkPreviewPage(context: PageContext, fileName: string | null): string {
  const description = context.text.messages.states.linkPreview.body;
  fileName ??= context.text.messages.states.linkPreview.title;
  const head =
    `<meta property="og:type" content="website"><meta property="og:site_name" content="Sharedown">` +
    `<meta property="og:title" content="${escapeHtml(fileName)}"><meta property="og:description" content="${escapeHtml(description)}">` +
    `<meta name="twitter:card" content="summary">`;
  return layout(context, {
    title: fileName,
    head,
    body: `<main class="sd-card"><h1>${escapeHtml(fileName)}</h1><p>${escapeHtml(description)}</p></main>`,
  });
}

export function passwordPage(context: PageContext, action: string, fileName: string, wrong: boolean): string {
  const { text } = context;
  const words = text.messages.password;
  return messagePage(
    context,
    words.title,
    text.format(words.body, { file: fileName }),
    `<form method="post" action="${escapeHtml(action)}">${problemOf(wrong ? words.wrong : null)}
<input type="hidden" name="action" value="password">
<label>${escapeHtml(words.label)}<input type="password" name="password" required minlength="1" maxlength="64" autocomplete="current-password" autofocus></label>
<button type="submit">${escapeHtml(words.submit)}</button></form>`,
  );
}

export function revealPage(context: PageContext, action: string, fileName: string, oneTime: boolean, burn: boolean): string {
  const { text } = context;
  const words = text.messages.reveal;
  const sentences = [text.format(words.ready, { file: fileName })];
  if (oneTime) sentences.push(words.oneTime);
  if (burn) sentences.push(words.burn);
  return messagePage(
    context,
    words.title,
    sentences.join(text.locale === 'zh-CN' || text.locale === 'ja' ? '' : ' '),
    `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="action" value="reveal">
<button type="submit">${escapeHtml(words.submit)}</button></form>`,
  );
}

/** What an agreement page shows and binds its form to. */
export interface AgreementPageOptions {
  action: string;
  fileName: string | null;
  /** The agreement, sanitized HTML of its Markdown. */
  html: string;
  requireName: boolean;
  /** The sealed hidden field binding the form to this share, text and visitor. */
  form: string;
  problem: 'accept' | 'name' | null;
  /** The name typed before, when the page comes back with a problem. */
  name: string;
}

/** The agreement a visitor must accept before any content: its text, a checkbox `accept`, a name when asked for, a button. */
export function agreementPage(context: PageContext, options: AgreementPageOptions): string {
  const { text } = context;
  const words = text.messages.agreement;
  const problem = options.problem === 'accept' ? words.mustAccept : options.problem === 'name' ? words.nameLength : null;
  const name = options.requireName
    ? `<label>${escapeHtml(words.name)}<input type="text" name="name" required minlength="1" maxlength="100" autocomplete="name" value="${escapeHtml(options.name)}"></label>`
    : '';
  return layout(context, {
    title: words.title,
    body: `<main class="sd-card sd-agreement-card">${senderLine(context)}<h1>${escapeHtml(words.title)}</h1>
<p>${escapeHtml(options.fileName === null ? words.bodyUnnamed : text.format(words.body, { file: options.fileName }))}</p>
<div class="sd-agreement">${options.html}</div>
<form method="post" action="${escapeHtml(options.action)}">${problemOf(problem)}
<input type="hidden" name="action" value="agree">
<input type="hidden" name="agreement" value="${escapeHtml(options.form)}">
<label class="sd-check"><input type="checkbox" name="accept" value="yes" required> ${escapeHtml(words.accept)}</label>
${name}<button type="submit">${escapeHtml(words.submit)}</button></form></main>
${languageSwitch(context)}`,
  });
}

/** Other ways to sign in on the login page: the password form (PASSWORD_LOGIN) and single sign-on. */
export interface LoginChoices {
  passwordForm: boolean;
  sso: { label: string; href: string } | null;
  /** Further ways to sign in (HTML), after the password form: the e-mail code form when SMTP_URL is set. */
  extra?: string;
}

export function loginPage(
  context: PageContext,
  consoleLogin: string,
  formAction: string,
  next: string,
  error: string | null,
  choices: LoginChoices = { passwordForm: true, sso: null },
): string {
  const words = context.text.messages.signIn;
  const problem = problemOf(error);
  const sso = choices.sso
    ? `<p class="sd-sso"><a class="sd-button" href="${escapeHtml(choices.sso.href)}" data-sso>${escapeHtml(choices.sso.label)}</a></p>`
    : '';
  const form = choices.passwordForm
    ? `<form method="post" action="${escapeHtml(formAction)}">${problem}
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label>${escapeHtml(words.email)}<input type="email" name="email" required autocomplete="username" autofocus></label>
<label>${escapeHtml(words.password)}<input type="password" name="password" required autocomplete="current-password"></label>
<button type="submit">${escapeHtml(words.submit)}</button></form>`
    : problem;
  return messagePage(
    context,
    words.title,
    words.body,
    `${sso}${form}${choices.extra ?? ''}
<p class="sd-links"><a href="${escapeHtml(consoleLogin)}">${escapeHtml(words.console)}</a></p>`,
  );
}

/**
 * The second step of the viewer's sign-in for an account with two-factor authentication. The
 * ticket is a sealed, short-lived note of the pending sign-in (account and return path), never
 * the password.
 */
export function twoFactorPage(
  context: PageContext,
  formAction: string,
  next: string,
  ticket: string,
  error: string | null,
): string {
  const words = context.text.messages.twoFactor;
  return messagePage(
    context,
    words.title,
    words.body,
    `<form method="post" action="${escapeHtml(formAction)}">${problemOf(error)}
<input type="hidden" name="next" value="${escapeHtml(next)}">
<input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
<label>${escapeHtml(words.code)}<input type="text" name="code" required minlength="6" maxlength="32" inputmode="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" autofocus></label>
<button type="submit">${escapeHtml(words.submit)}</button></form>`,
  );
}

/** The report form; `fileName` null when the link does not name its file to strangers. */
export function reportPage(context: PageContext, action: string, fileName: string | null, error: string | null): string {
  const { text } = context;
  const words = text.messages.report;
  return messagePage(
    context,
    words.title,
    fileName === null ? words.bodyUnnamed : text.format(words.body, { file: fileName }),
    `<form method="post" action="${escapeHtml(action)}">${problemOf(error)}
<label>${escapeHtml(words.reason)}<textarea name="reason" required minlength="3" maxlength="1000"></textarea></label>
<button type="submit">${escapeHtml(words.submit)}</button></form>`,
  );
}

export interface DocumentPageOptions {
  context: PageContext;
  fileName: string;
  shareId: string;
  versionId: string;
  reportUrl: string;
  /** Sanitized document HTML (Markdown, text) as UTF-8, or null for an HTML document shown in a frame. */
  inlineHtml: Buffer | null;
  frameUrl: string | null;
  watermark: string | null;
  copyProtection: boolean;
  burnAfterRead: boolean;
  /** The signed visit id for the page's engagement beacons; null: the visit is not measured. */
  beacon?: string | null;
  /** A collection's document: the collection page, linked from the bar. */
  backUrl?: string | null;
}

const WATERMARK_TILES = 90;

// Stands where the document goes while the page around it is built as a (short) string.
const CONTENT_SLOT = '\u0000sd-content\u0000';

/**
 * The viewer page as bytes. An inline document's page comes in parts, the cached document
 * between the page's head and tail: never re-encoded, nor copied into a page of its own.
 */
export function documentPage(options: DocumentPageOptions): Buffer | PageParts {
  if (options.inlineHtml !== null && !options.watermark && options.frameUrl === null && !options.backUrl) {
    return framedDocument(options, options.inlineHtml);
  }
  return builtPage(options);
}

// Stands where the visit's beacon goes in a page kept around an inline document.
const BEACON_SLOT = '\u0000sd-beacon\u0000';

/** The page around an inline document, as bytes split where the beacon and the document go. */
interface PageFrame {
  parts: readonly Buffer[];
  withBeacon: boolean;
}

/**
 * The pages around inline documents without a watermark or a link back, by everything they are
 * made of: each is the same for every view of its version, in its language, but for the visit's
 * beacon, so it is built and encoded once, not per view. Bounded; a page built again is the same.
 */
const PAGE_FRAMES = new LRUCache<string, PageFrame>({ max: 2_000 });

function framedDocument(options: DocumentPageOptions, inlineHtml: Buffer): PageParts {
  const withBeacon = Boolean(options.beacon);
  const { context } = options;
  const key = [
    context.text.locale,
    context.assets.css,
    context.assets.js,
    options.shareId,
    options.versionId,
    options.fileName,
    options.reportUrl,
    options.copyProtection,
    options.burnAfterRead,
    withBeacon,
  ].join('\u0000');
  let frame = PAGE_FRAMES.get(key);
  if (!frame) {
    const page = builtPage({ ...options, beacon: withBeacon ? BEACON_SLOT : null });
    if (!Array.isArray(page) || page.length !== 3) throw new Error('an inline document page has a head and a tail');
    const [head, , tail] = page as [Buffer, Buffer, Buffer];
    const beaconAt = withBeacon ? head.indexOf(BEACON_SLOT) : -1;
    frame =
      beaconAt < 0
        ? { parts: [head, tail], withBeacon: false }
        : {
            parts: [head.subarray(0, beaconAt), head.subarray(beaconAt + Buffer.byteLength(BEACON_SLOT)), tail],
            withBeacon: true,
          };
    PAGE_FRAMES.set(key, frame);
  }
  const [first, second, third] = frame.parts as [Buffer, Buffer, Buffer | undefined];
  return frame.withBeacon
    ? [first, Buffer.from(escapeHtml(options.beacon!)), second, inlineHtml, third!]
    : [first, inlineHtml, second];
}

function builtPage(options: DocumentPageOptions): Buffer | PageParts {
  const watermark = options.watermark
    ? `<div class="sd-wm" aria-hidden="true">${`<span>${escapeHtml(options.watermark)}</span>`.repeat(WATERMARK_TILES)}</div>`
    : '';
  const back = options.backUrl
    ? `<a class="sd-back" href="${escapeHtml(options.backUrl)}">${escapeHtml(options.context.text.messages.collection.back)}</a>`
    : '';
  const bar = `<header class="sd-bar">${back}<span class="sd-name">${escapeHtml(options.fileName)}</span><a href="${escapeHtml(options.reportUrl)}" rel="nofollow">${escapeHtml(options.context.text.messages.report.link)}</a></header>`;
  const content =
    options.frameUrl !== null
      ? `<iframe class="sd-frame" src="${escapeHtml(options.frameUrl)}" sandbox="allow-scripts allow-popups" referrerpolicy="no-referrer" title="${escapeHtml(options.fileName)}"></iframe>`
      : `<main class="sd-main"><p class="sd-burn-note" hidden></p><article class="sd-doc">${CONTENT_SLOT}</article></main>`;
  const notes = options.context.text.messages.document;
  const attributes =
    ` data-share="${escapeHtml(options.shareId)}" data-version="${escapeHtml(options.versionId)}"` +
    ` data-copy="${options.copyProtection ? '1' : '0'}" data-burn="${options.burnAfterRead ? '1' : '0'}"` +
    (options.beacon ? ` data-visit="${escapeHtml(options.beacon)}"` : '') +
    (options.copyProtection ? ` data-no-print="${escapeHtml(notes.noPrint)}"` : '') +
    (options.burnAfterRead
      ? ` data-burned-all="${escapeHtml(notes.burnedAll)}" data-burned-some="${escapeHtml(notes.burnedSome)}"`
      : '') +
    (options.frameUrl !== null ? ' class="sd-frame-page"' : '');
  const page = layout(options.context, {
    title: options.fileName,
    htmlClass: options.copyProtection ? 'sd-protect' : undefined,
    bodyAttributes: attributes,
    script: true,
    body: `${bar}\n${content}\n${watermark}`,
  });
  const slot = page.indexOf(CONTENT_SLOT);
  if (slot < 0 || options.inlineHtml === null) return Buffer.from(page);
  return [Buffer.from(page.slice(0, slot)), options.inlineHtml, Buffer.from(page.slice(slot + CONTENT_SLOT.length))];
}

export interface CollectionPageOptions {
  context: PageContext;
  /** The shared folder's name. */
  folderName: string;
  /** The link's path; each document opens at `<linkPath>/d/<fileId>`. */
  linkPath: string;
  reportUrl: string;
  documents: ReadonlyArray<{ id: string; name: string; kind: FileKind; sizeBytes: number; updatedAt: Date; path: string[] }>;
}

function byteSize(locale: string, bytes: number): string {
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
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

function changedAt(locale: string, at: Date): string {
  return `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

/**
 * A collection: the folder's name and its documents, those of sub-folders grouped under their
 * folder's path, each with name, kind, size and last change, linking to its own page.
 */
export function collectionPage(options: CollectionPageOptions): string {
  const { context } = options;
  const words = context.text.messages.collection;
  const locale = context.text.locale;
  const groups = new Map<string, CollectionPageOptions['documents'][number][]>();
  for (const document of options.documents) {
    const key = document.path.join(' / ');
    const group = groups.get(key);
    if (group) group.push(document);
    else groups.set(key, [document]);
  }
  const head = `<tr><th scope="col">${escapeHtml(words.name)}</th><th scope="col">${escapeHtml(words.kind)}</th><th scope="col">${escapeHtml(words.size)}</th><th scope="col">${escapeHtml(words.changed)}</th></tr>`;
  const sections = [...groups].map(([path, documents]) => {
    const rows = documents
      .map(
        (document) =>
          `<tr data-file="${escapeHtml(document.id)}"><td><a href="${escapeHtml(`${options.linkPath}/d/${document.id}`)}">${escapeHtml(document.name)}</a></td>` +
          `<td>${escapeHtml(words.kinds[document.kind])}</td><td class="sd-num">${escapeHtml(byteSize(locale, document.sizeBytes))}</td>` +
          `<td class="sd-num"><time datetime="${document.updatedAt.toISOString()}">${escapeHtml(changedAt(locale, document.updatedAt))}</time></td></tr>`,
      )
      .join('');
    const heading = path === '' ? '' : `<h2 data-folder="${escapeHtml(path)}">${escapeHtml(path)}</h2>`;
    return `<section>${heading}<table><thead>${head}</thead><tbody>${rows}</tbody></table></section>`;
  });
  const list = sections.length ? sections.join('\n') : `<p class="sd-empty">${escapeHtml(words.empty)}</p>`;
  const bar =
    `<header class="sd-bar"><a class="sd-back" href="${escapeHtml(options.linkPath)}">${escapeHtml(words.label)}</a>` +
    `<a href="${escapeHtml(options.reportUrl)}" rel="nofollow">${escapeHtml(context.text.messages.report.link)}</a></header>`;
  return layout(context, {
    title: options.folderName,
    body: `${bar}\n<main class="sd-main sd-list">${senderLine(context)}<h1>${escapeHtml(options.folderName)}</h1>\n${list}</main>\n${languageSwitch(context)}`,
  });
}
