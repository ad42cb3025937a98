import { escapeHtml } from '../common/html.js';
import { messagePage, type PageAssets } from './viewer-pages.js';

export const EMAIL_CODE_SEND = '/s/_email-code';
export const EMAIL_CODE_VERIFY = '/s/_email-code/verify';

/** Whose code the entry page asks for: a sign-in code, or one proving the signed-in account's address. */
export type CodeMode = 'sign-in' | 'verify';

/** The part of the sign-in page that mails a code instead of asking for a password. */
export function emailCodeSection(next: string): string {
  return `<form method="post" action="${EMAIL_CODE_SEND}" class="sd-email-code" data-email-code>
<p class="sd-links">没有密码？用电子邮件验证码登录：</p>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label>电子邮件<input type="email" name="email" required maxlength="254" autocomplete="email"></label>
<button type="submit">发送验证码</button></form>`;
}

/** GET /s/_email-code: the address to mail a sign-in code to. */
export function emailCodeRequestPage(assets: PageAssets, next: string, error: string | null): string {
  const problem = error ? `<p class="sd-error" role="alert">${escapeHtml(error)}</p>` : '';
  return messagePage(
    assets,
    '用验证码登录',
    '输入你的电子邮件地址，我们会发送一个 6 位验证码。',
    `<form method="post" action="${EMAIL_CODE_SEND}">${problem}
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label>电子邮件<input type="email" name="email" required maxlength="254" autocomplete="email" autofocus></label>
<button type="submit">发送验证码</button></form>`,
  );
}

/** A button mailing a code to the signed-in account's own address. */
export function verifyOfferForm(email: string, next: string): string {
  return `<form method="post" action="${EMAIL_CODE_SEND}" data-verify-offer>
<input type="hidden" name="mode" value="verify">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">发送验证码到 ${escapeHtml(email)}</button></form>`;
}

/** GET /s/_email-code?mode=verify: mail a code to the signed-in account's address. */
export function verifyOfferPage(assets: PageAssets, email: string, next: string): string {
  return messagePage(
    assets,
    '验证电子邮件地址',
    `我们会发送一个 6 位验证码到 ${email}，用它证明这个地址属于你。`,
    verifyOfferForm(email, next),
  );
}

export interface CodeEntry {
  mode: CodeMode;
  email: string;
  next: string;
  error: string | null;
  /** Set when the account asks for its second factor: the e-mail code already typed, kept for the next post. */
  twoFactor?: { emailCode: string };
}

/** Where the mailed code is typed (and, for an account with two factors, its second code). */
export function emailCodeEntryPage(assets: PageAssets, entry: CodeEntry): string {
  const problem = entry.error ? `<p class="sd-error" role="alert">${escapeHtml(entry.error)}</p>` : '';
  const hidden = `<input type="hidden" name="mode" value="${entry.mode}">
<input type="hidden" name="email" value="${escapeHtml(entry.email)}">
<input type="hidden" name="next" value="${escapeHtml(entry.next)}">`;
  const fields = entry.twoFactor
    ? `<input type="hidden" name="code" value="${escapeHtml(entry.twoFactor.emailCode)}">
<label>两步验证码或恢复码<input type="text" name="twoFactorCode" required minlength="6" maxlength="32" autocomplete="one-time-code" autofocus></label>`
    : `<label>验证码<input type="text" name="code" required inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" autofocus></label>`;
  const message = entry.twoFactor
    ? '这个账号开启了两步验证，请输入验证器应用中的验证码或一个恢复码。'
    : `如果 ${entry.email} 可以使用，验证码已经发出，10 分钟内有效。请查收邮件并输入 6 位验证码。`;
  return messagePage(
    assets,
    entry.mode === 'verify' ? '验证电子邮件地址' : '输入验证码',
    message,
    `<form method="post" action="${EMAIL_CODE_VERIFY}">${problem}
${hidden}
${fields}
<button type="submit">${entry.mode === 'verify' ? '验证' : '登录并查看'}</button></form>`,
  );
}

/** How an unproven visitor of an allowlisted link can prove the address, if this instance can. */
export type VerifyOffer =
  | { kind: 'email-form'; email: string; next: string }
  | { kind: 'email-link'; href: string }
  | { kind: 'sso'; label: string; href: string }
  | { kind: 'none' };

/** An allowlisted link opened by an account whose address is not proven. */
export function unverifiedPage(assets: PageAssets, email: string, offer: VerifyOffer): string {
  let extra: string;
  switch (offer.kind) {
    case 'email-form':
      extra = verifyOfferForm(offer.email, offer.next);
      break;
    case 'email-link':
      extra = `<p><a href="${escapeHtml(offer.href)}" data-verify-offer>通过电子邮件验证码验证地址</a></p>`;
      break;
    case 'sso':
      extra = `<p class="sd-sso"><a class="sd-button" href="${escapeHtml(offer.href)}" data-sso>${escapeHtml(offer.label)}</a></p>
<p class="sd-links">通过单点登录进入由身份提供方证实此地址的账号后再打开链接。</p>`;
      break;
    case 'none':
      extra = '<p class="sd-links" data-cannot-verify>本服务无法验证电子邮件地址（未配置邮件发送或单点登录），请联系分享者。</p>';
      break;
  }
  return messagePage(
    assets,
    '需要验证电子邮件地址',
    `此链接只对已验证的电子邮件地址开放，当前登录的账号（${email}）的地址尚未验证。`,
    extra,
  );
}
