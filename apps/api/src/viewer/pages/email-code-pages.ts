import { CODE_TTL_MINUTES } from '../../auth/email/email-codes.repository.js';
import { escapeHtml } from '../../common/text/html.js';
import { messagePage, type PageContext } from './viewer-pages.js';

export const EMAIL_CODE_SEND = '/s/_email-code';
export const EMAIL_CODE_VERIFY = '/s/_email-code/verify';

/** Whose code the entry page asks for: a sign-in code, or one proving the signed-in account's address. */
export type CodeMode = 'sign-in' | 'verify';

/** The part of the sign-in page that mails a code instead of asking for a password. */
export function emailCodeSection(context: PageContext, next: string): string {
  const words = context.text.messages.emailCode;
  return `<form method="post" action="${EMAIL_CODE_SEND}" class="sd-email-code" data-email-code>
<p class="sd-links">${escapeHtml(words.offer)}</p>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label>${escapeHtml(words.email)}<input type="email" name="email" required maxlength="254" autocomplete="email"></label>
<button type="submit">${escapeHtml(words.send)}</button></form>`;
}

/** GET /s/_email-code: the address to mail a sign-in code to. */
export function emailCodeRequestPage(context: PageContext, next: string, error: string | null): string {
  const words = context.text.messages.emailCode;
  const problem = error ? `<p class="sd-error" role="alert">${escapeHtml(error)}</p>` : '';
  return messagePage(
    context,
    words.requestTitle,
    words.requestBody,
    `<form method="post" action="${EMAIL_CODE_SEND}">${problem}
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label>${escapeHtml(words.email)}<input type="email" name="email" required maxlength="254" autocomplete="email" autofocus></label>
<button type="submit">${escapeHtml(words.send)}</button></form>`,
  );
}

/** A button mailing a code to the signed-in account's own address. */
export function verifyOfferForm(context: PageContext, email: string, next: string): string {
  const { text } = context;
  return `<form method="post" action="${EMAIL_CODE_SEND}" data-verify-offer>
<input type="hidden" name="mode" value="verify">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">${escapeHtml(text.format(text.messages.emailCode.sendTo, { email }))}</button></form>`;
}

/** GET /s/_email-code?mode=verify: mail a code to the signed-in account's address. */
export function verifyOfferPage(context: PageContext, email: string, next: string): string {
  const { text } = context;
  return messagePage(
    context,
    text.messages.emailCode.verifyTitle,
    text.format(text.messages.emailCode.verifyBody, { email }),
    verifyOfferForm(context, email, next),
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
export function emailCodeEntryPage(context: PageContext, entry: CodeEntry): string {
  const { text } = context;
  const words = text.messages.emailCode;
  const problem = entry.error ? `<p class="sd-error" role="alert">${escapeHtml(entry.error)}</p>` : '';
  const hidden = `<input type="hidden" name="mode" value="${entry.mode}">
<input type="hidden" name="email" value="${escapeHtml(entry.email)}">
<input type="hidden" name="next" value="${escapeHtml(entry.next)}">`;
  const fields = entry.twoFactor
    ? `<input type="hidden" name="code" value="${escapeHtml(entry.twoFactor.emailCode)}">
<label>${escapeHtml(words.twoFactorCode)}<input type="text" name="twoFactorCode" required minlength="6" maxlength="32" autocomplete="one-time-code" autofocus></label>`
    : `<label>${escapeHtml(words.code)}<input type="text" name="code" required inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" autofocus></label>`;
  const message = entry.twoFactor
    ? words.twoFactorBody
    : text.format(words.entryBody, { email: entry.email, duration: text.minutes(CODE_TTL_MINUTES) });
  return messagePage(
    context,
    entry.mode === 'verify' ? words.verifyTitle : words.entryTitle,
    message,
    `<form method="post" action="${EMAIL_CODE_VERIFY}">${problem}
${hidden}
${fields}
<button type="submit">${escapeHtml(entry.mode === 'verify' ? words.verify : words.signIn)}</button></form>`,
  );
}

/** How an unproven visitor of an allowlisted link can prove the address, if this instance can. */
export type VerifyOffer =
  | { kind: 'email-form'; email: string; next: string }
  | { kind: 'email-link'; href: string }
  | { kind: 'sso'; label: string; href: string }
  | { kind: 'none' };

/** An allowlisted link opened by an account whose address is not proven. */
export function unverifiedPage(context: PageContext, email: string, offer: VerifyOffer): string {
  const { text } = context;
  const words = text.messages.unverified;
  let extra: string;
  switch (offer.kind) {
    case 'email-form':
      extra = verifyOfferForm(context, offer.email, offer.next);
      break;
    case 'email-link':
      extra = `<p><a href="${escapeHtml(offer.href)}" data-verify-offer>${escapeHtml(words.emailLink)}</a></p>`;
      break;
    case 'sso':
      extra = `<p class="sd-sso"><a class="sd-button" href="${escapeHtml(offer.href)}" data-sso>${escapeHtml(offer.label)}</a></p>
<p class="sd-links">${escapeHtml(words.sso)}</p>`;
      break;
    case 'none':
      extra = `<p class="sd-links" data-cannot-verify>${escapeHtml(words.none)}</p>`;
      break;
  }
  return messagePage(context, words.title, text.format(words.body, { email }), extra);
}
