import { escapeHtml } from '../common/html.js';

export interface PageAssets {
  css: string;
  js: string;
}

interface LayoutOptions {
  title: string;
  assets: PageAssets;
  body: string;
  htmlClass?: string;
  bodyAttributes?: string;
  script?: boolean;
  /** Extra elements of the head (Open Graph tags). */
  head?: string;
}

function layout(options: LayoutOptions): string {
  const htmlClass = options.htmlClass ? ` class="${options.htmlClass}"` : '';
  const script = options.script ? `<script src="${options.assets.js}" defer></script>` : '';
  return `<!doctype html>
<html lang="zh-CN"${htmlClass}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow,noarchive"><meta name="color-scheme" content="light dark">
<title>${escapeHtml(options.title)}</title>${options.head ?? ''}<link rel="stylesheet" href="${options.assets.css}">${script}</head>
<body${options.bodyAttributes ?? ''}>
${options.body}
</body></html>`;
}

/** A short page with a heading, a sentence and optional extra markup (forms, links). */
export function messagePage(assets: PageAssets, title: string, message: string, extra = ''): string {
  return layout({
    title,
    assets,
    body: `<main class="sd-card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${extra}</main>`,
  });
}

/**
 * What a link preview (a chat app, a mail scanner) gets: Open Graph tags naming the document by its
 * file name, and none of its content.
 */
export function linkPreviewPage(assets: PageAssets, fileName: string): string {
  const description = '共享文档，请在浏览器中打开查看。';
  const head =
    `<meta property="og:type" content="website"><meta property="og:site_name" content="Sharedown">` +
    `<meta property="og:title" content="${escapeHtml(fileName)}"><meta property="og:description" content="${escapeHtml(description)}">` +
    `<meta name="twitter:card" content="summary">`;
  return layout({
    title: fileName,
    assets,
    head,
    body: `<main class="sd-card"><h1>${escapeHtml(fileName)}</h1><p>${escapeHtml(description)}</p></main>`,
  });
}

export function passwordPage(assets: PageAssets, action: string, fileName: string, error: string | null): string {
  const problem = error ? `<p class="sd-error" role="alert">${escapeHtml(error)}</p>` : '';
  return messagePage(
    assets,
    '需要密码',
    `“${fileName}”受密码保护，请输入访问密码。`,
    `<form method="post" action="${escapeHtml(action)}">${problem}
<input type="hidden" name="action" value="password">
<label>密码<input type="password" name="password" required minlength="1" maxlength="64" autocomplete="current-password" autofocus></label>
<button type="submit">查看文档</button></form>`,
  );
}

export function revealPage(assets: PageAssets, action: string, fileName: string, oneTime: boolean, burn: boolean): string {
  const notes: string[] = [];
  if (oneTime) notes.push('这是一次性链接：打开后链接即失效，无法再次查看。');
  if (burn) notes.push('阅后即焚：滚动读过的内容会在本浏览器中隐藏。');
  return messagePage(
    assets,
    '点击查看文档',
    `“${fileName}”已准备好。${notes.join('')}`,
    `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="action" value="reveal">
<button type="submit">查看文档</button></form>`,
  );
}

/** Other ways to sign in on the login page: the password form (PASSWORD_LOGIN) and single sign-on. */
export interface LoginChoices {
  passwordForm: boolean;
  sso: { label: string; href: string } | null;
  /** Further ways to sign in (HTML), after the password form: the e-mail code form when SMTP_URL is set. */
  extra?: string;
}

export function loginPage(
  assets: PageAssets,
  consoleLogin: string,
  formAction: string,
  next: string,
  error: string | null,
  choices: LoginChoices = { passwordForm: true, sso: null },
): string {
  const problem = error ? `<p class="sd-error" role="alert">${escapeHtml(error)}</p>` : '';
  const sso = choices.sso
    ? `<p class="sd-sso"><a class="sd-button" href="${escapeHtml(choices.sso.href)}" data-sso>${escapeHtml(choices.sso.label)}</a></p>`
    : '';
  const form = choices.passwordForm
    ? `<form method="post" action="${escapeHtml(formAction)}">${problem}
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label>电子邮件<input type="email" name="email" required autocomplete="username" autofocus></label>
<label>密码<input type="password" name="password" required autocomplete="current-password"></label>
<button type="submit">登录并查看</button></form>`
    : problem;
  return messagePage(
    assets,
    '需要登录',
    '此链接仅对已登录的用户开放，请先登录。',
    `${sso}${form}${choices.extra ?? ''}
<p class="sd-links"><a href="${escapeHtml(consoleLogin)}">在控制台登录</a></p>`,
  );
}

/**
 * The second step of the viewer's sign-in for an account with two-factor authentication. The
 * ticket is a sealed, short-lived note of the pending sign-in (account and return path), never
 * the password.
 */
export function twoFactorPage(
  assets: PageAssets,
  formAction: string,
  next: string,
  ticket: string,
  error: string | null,
): string {
  const problem = error ? `<p class="sd-error" role="alert">${escapeHtml(error)}</p>` : '';
  return messagePage(
    assets,
    '两步验证',
    '请输入身份验证器应用中的 6 位验证码，或一个恢复码。',
    `<form method="post" action="${escapeHtml(formAction)}">${problem}
<input type="hidden" name="next" value="${escapeHtml(next)}">
<input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
<label>验证码<input type="text" name="code" required minlength="6" maxlength="32" inputmode="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" autofocus></label>
<button type="submit">验证并查看</button></form>`,
  );
}

export function reportPage(assets: PageAssets, action: string, fileName: string, error: string | null): string {
  const problem = error ? `<p class="sd-error" role="alert">${escapeHtml(error)}</p>` : '';
  return messagePage(
    assets,
    '举报此分享',
    `如果“${fileName}”包含违法、侵权、欺诈或恶意内容，请告诉我们原因。`,
    `<form method="post" action="${escapeHtml(action)}">${problem}
<label>原因<textarea name="reason" required minlength="3" maxlength="1000"></textarea></label>
<button type="submit">提交举报</button></form>`,
  );
}

export interface DocumentPageOptions {
  assets: PageAssets;
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
}

const WATERMARK_TILES = 90;

// Stands where the document goes while the page around it is built as a (short) string.
const CONTENT_SLOT = '\u0000sd-content\u0000';

/** The viewer page as bytes: the cached document is copied in, never re-encoded. */
export function documentPage(options: DocumentPageOptions): Buffer {
  const watermark = options.watermark
    ? `<div class="sd-wm" aria-hidden="true">${`<span>${escapeHtml(options.watermark)}</span>`.repeat(WATERMARK_TILES)}</div>`
    : '';
  const bar = `<header class="sd-bar"><span class="sd-name">${escapeHtml(options.fileName)}</span><a href="${escapeHtml(options.reportUrl)}" rel="nofollow">举报</a></header>`;
  const content =
    options.frameUrl !== null
      ? `<iframe class="sd-frame" src="${escapeHtml(options.frameUrl)}" sandbox="allow-scripts allow-popups" referrerpolicy="no-referrer" title="${escapeHtml(options.fileName)}"></iframe>`
      : `<main class="sd-main"><p class="sd-burn-note" hidden></p><article class="sd-doc">${CONTENT_SLOT}</article></main>`;
  const attributes =
    ` data-share="${escapeHtml(options.shareId)}" data-version="${escapeHtml(options.versionId)}"` +
    ` data-copy="${options.copyProtection ? '1' : '0'}" data-burn="${options.burnAfterRead ? '1' : '0'}"` +
    (options.beacon ? ` data-visit="${escapeHtml(options.beacon)}"` : '') +
    (options.frameUrl !== null ? ' class="sd-frame-page"' : '');
  const page = layout({
    title: options.fileName,
    assets: options.assets,
    htmlClass: options.copyProtection ? 'sd-protect' : undefined,
    bodyAttributes: attributes,
    script: true,
    body: `${bar}\n${content}\n${watermark}`,
  });
  const slot = page.indexOf(CONTENT_SLOT);
  if (slot < 0 || options.inlineHtml === null) return Buffer.from(page);
  return Buffer.concat([Buffer.from(page.slice(0, slot)), options.inlineHtml, Buffer.from(page.slice(slot + CONTENT_SLOT.length))]);
}
