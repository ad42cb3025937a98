import type { AgreementInput, ShareNotify } from '../api/types';
import { inRange, isEmail, LIMITS, parseInteger, SLUG_PATTERN, WATERMARK_TEXT_PATTERN } from './validators';

/** What the form edits: every ShareInput option, with switches for the optional ones. */
export interface ShareFormState {
  expiresEnabled: boolean;
  expiresInDays: string | number;
  passwordEnabled: boolean;
  password: string;
  maxVisitsEnabled: boolean;
  maxVisits: string | number;
  perVisitorEnabled: boolean;
  perVisitorMaxVisits: string | number;
  perLoginUserEnabled: boolean;
  perLoginUserMaxVisits: string | number;
  oneTime: boolean;
  requireLogin: boolean;
  watermarkEnabled: boolean;
  watermarkText: string;
  copyProtectionEnabled: boolean;
  burnAfterReadEnabled: boolean;
  slugEnabled: boolean;
  slug: string;
  /** '' pins nothing: the share follows the latest clean version. */
  lockedVersionId: string;
  oneSession: boolean;
  allowlistEnabled: boolean;
  emailAllowlist: string;
  notify: ShareNotify;
  agreementEnabled: boolean;
  /** Markdown the visitor accepts before any content of the share. */
  agreementText: string;
  agreementRequireName: boolean;
}

/** A file version the share may be pinned to. */
export interface VersionOption {
  id: string;
  label: string;
}

/** The API's ShareInput, as sent on creation. */
export interface ShareInput {
  expiresInDays?: number | null;
  password?: string | null;
  maxVisits?: number | null;
  perVisitorMaxVisits?: number | null;
  perLoginUserMaxVisits?: number | null;
  oneTime?: boolean;
  requireLogin?: boolean;
  watermarkEnabled?: boolean;
  watermarkText?: string | null;
  copyProtectionEnabled?: boolean;
  burnAfterReadEnabled?: boolean;
  slug?: string | null;
  lockedVersionId?: string;
  oneSession?: boolean;
  emailAllowlist?: string[];
  notify?: ShareNotify;
  /** null removes the agreement (editing); absent leaves it as it is. */
  agreement?: AgreementInput | null;
}

export type { AgreementInput };

/** The placeholders a watermark text may hold, filled per view with what is known of the reader. */
export const WATERMARK_PLACEHOLDERS = ['{email}', '{name}', '{date}', '{ip}'] as const;

export function emptyShareForm(): ShareFormState {
  return {
    expiresEnabled: false,
    expiresInDays: 7,
    passwordEnabled: false,
    password: '',
    maxVisitsEnabled: false,
    maxVisits: 10,
    perVisitorEnabled: false,
    perVisitorMaxVisits: 3,
    perLoginUserEnabled: false,
    perLoginUserMaxVisits: 3,
    oneTime: false,
    requireLogin: false,
    watermarkEnabled: false,
    watermarkText: '',
    copyProtectionEnabled: false,
    burnAfterReadEnabled: false,
    slugEnabled: false,
    slug: '',
    lockedVersionId: '',
    oneSession: false,
    allowlistEnabled: false,
    emailAllowlist: '',
    notify: 'off',
    agreementEnabled: false,
    agreementText: '',
    agreementRequireName: false,
  };
}

/** E-mails typed one per line or separated by commas, semicolons or spaces; duplicates dropped. */
export function parseEmails(text: string): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const email = part.trim();
    if (!email || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    result.push(email);
  }
  return result;
}

/** Login is implied by a per-account cap or an allowlist, exactly as the API applies it. */
export function loginRequired(state: ShareFormState): boolean {
  return state.requireLogin || state.perLoginUserEnabled || state.allowlistEnabled;
}

/** One-time links allow exactly one visit whatever the cap says. */
export function effectiveMaxVisits(state: ShareFormState): number | null {
  if (state.oneTime) return 1;
  return state.maxVisitsEnabled ? parseInteger(state.maxVisits) : null;
}

export type FieldError = { key: string; params?: Record<string, unknown> } | null;
export type ShareFormErrors = Record<
  | 'expiresInDays'
  | 'password'
  | 'maxVisits'
  | 'perVisitorMaxVisits'
  | 'perLoginUserMaxVisits'
  | 'watermarkText'
  | 'slug'
  | 'emailAllowlist'
  | 'agreementText',
  FieldError
>;

/** Characters as the API counts them: code points, so an emoji is one. */
export function characters(text: string): number {
  return [...text].length;
}

/**
 * The watermark template's problem, if any: the API counts the template (placeholders as typed)
 * against the limit and refuses control characters.
 */
export function watermarkProblem(text: string): FieldError {
  if (characters(text.trim()) > LIMITS.watermarkText.max) return { key: 'shareForm.errWatermark', params: LIMITS.watermarkText };
  if (!WATERMARK_TEXT_PATTERN.test(text)) return { key: 'readerWatermark.errControl' };
  return null;
}

/** An agreement's text must say something, and stay within the API's length. */
export function agreementProblem(text: string): FieldError {
  const length = characters(text);
  if (text.trim() === '') return { key: 'agreementForm.errEmpty' };
  if (length > LIMITS.agreementText.max) return { key: 'agreementForm.errLength', params: LIMITS.agreementText };
  return null;
}

function capError(enabled: boolean, value: string | number): FieldError {
  if (!enabled) return null;
  const parsed = parseInteger(value);
  return parsed !== null && inRange(parsed, LIMITS.visits.min, LIMITS.visits.max)
    ? null
    : { key: 'shareForm.errCap', params: LIMITS.visits };
}

/** The API's limits, checked field by field so each message appears beside its input. */
export function validateShareForm(state: ShareFormState): ShareFormErrors {
  const days = parseInteger(state.expiresInDays);
  const emails = parseEmails(state.emailAllowlist);
  const invalidEmail = emails.find((email) => !isEmail(email));
  return {
    expiresInDays:
      state.expiresEnabled && (days === null || !inRange(days, LIMITS.expiresInDays.min, LIMITS.expiresInDays.max))
        ? { key: 'shareForm.errDays', params: LIMITS.expiresInDays }
        : null,
    password:
      state.passwordEnabled && !inRange(state.password.length, LIMITS.sharePassword.min, LIMITS.sharePassword.max)
        ? { key: 'shareForm.errPassword', params: LIMITS.sharePassword }
        : null,
    maxVisits: state.oneTime ? null : capError(state.maxVisitsEnabled, state.maxVisits),
    perVisitorMaxVisits: capError(state.perVisitorEnabled, state.perVisitorMaxVisits),
    perLoginUserMaxVisits: capError(state.perLoginUserEnabled, state.perLoginUserMaxVisits),
    watermarkText: state.watermarkEnabled ? watermarkProblem(state.watermarkText) : null,
    slug: state.slugEnabled && !SLUG_PATTERN.test(state.slug) ? { key: 'shareForm.errSlug' } : null,
    emailAllowlist: !state.allowlistEnabled
      ? null
      : emails.length === 0
        ? { key: 'shareForm.errAllowlistEmpty' }
        : invalidEmail
          ? { key: 'shareForm.errAllowlistEmail', params: { email: invalidEmail } }
          : null,
    agreementText: state.agreementEnabled ? agreementProblem(state.agreementText) : null,
  };
}

export function hasErrors(errors: ShareFormErrors): boolean {
  return Object.values(errors).some((error) => error !== null);
}

/** The request body for the form's state; options left off are not sent, so API defaults apply. */
export function toShareInput(state: ShareFormState): ShareInput {
  const input: ShareInput = {};
  if (state.expiresEnabled) input.expiresInDays = parseInteger(state.expiresInDays);
  if (state.passwordEnabled) input.password = state.password;
  if (state.oneTime) input.oneTime = true;
  else if (state.maxVisitsEnabled) input.maxVisits = parseInteger(state.maxVisits);
  if (state.perVisitorEnabled) input.perVisitorMaxVisits = parseInteger(state.perVisitorMaxVisits);
  if (state.perLoginUserEnabled) input.perLoginUserMaxVisits = parseInteger(state.perLoginUserMaxVisits);
  if (loginRequired(state)) input.requireLogin = true;
  if (state.watermarkEnabled) {
    input.watermarkEnabled = true;
    const text = state.watermarkText.trim();
    input.watermarkText = text ? text : null;
  }
  if (state.copyProtectionEnabled) input.copyProtectionEnabled = true;
  if (state.burnAfterReadEnabled) input.burnAfterReadEnabled = true;
  if (state.slugEnabled) input.slug = state.slug;
  if (state.lockedVersionId) input.lockedVersionId = state.lockedVersionId;
  if (state.oneSession) input.oneSession = true;
  if (state.allowlistEnabled) input.emailAllowlist = parseEmails(state.emailAllowlist);
  if (state.notify !== 'off') input.notify = state.notify;
  if (state.agreementEnabled) input.agreement = { text: state.agreementText, requireName: state.agreementRequireName };
  return input;
}

export interface SummaryLine {
  key: string;
  params?: Record<string, unknown>;
  tone?: 'info' | 'warning';
}

/** What a visitor will go through, in order, for the live summary beside the form. */
export function summarizeShare(state: ShareFormState, now = new Date(), collection = false): SummaryLine[] {
  const lines: SummaryLine[] = [];
  const emails = parseEmails(state.emailAllowlist);
  if (state.allowlistEnabled && emails.length > 0) {
    lines.push({
      key: 'summary.allowlist',
      params: { count: emails.length, list: emails.slice(0, 3).join(', ') + (emails.length > 3 ? '…' : '') },
    });
  } else if (loginRequired(state)) {
    lines.push({ key: 'summary.login' });
  } else {
    lines.push({ key: 'summary.anyone' });
  }
  if (state.passwordEnabled) lines.push({ key: 'summary.password' });
  if (state.agreementEnabled) {
    lines.push({ key: state.agreementRequireName ? 'agreementForm.summaryNamed' : 'agreementForm.summary' });
  }
  if (state.oneSession) lines.push({ key: 'summary.oneSession' });
  if (state.oneTime || state.burnAfterReadEnabled) lines.push({ key: 'summary.reveal' });

  const days = parseInteger(state.expiresInDays);
  if (state.expiresEnabled && days !== null && inRange(days, LIMITS.expiresInDays.min, LIMITS.expiresInDays.max)) {
    const until = new Date(now.getTime() + days * 86_400_000);
    lines.push({ key: 'summary.expires', params: { days, date: until } });
  } else {
    lines.push({ key: 'summary.neverExpires' });
  }

  const total = effectiveMaxVisits(state);
  if (state.oneTime) lines.push({ key: 'summary.oneTime', tone: 'warning' });
  else if (total !== null) lines.push({ key: 'summary.maxVisits', params: { count: total } });
  const perVisitor = state.perVisitorEnabled ? parseInteger(state.perVisitorMaxVisits) : null;
  if (perVisitor !== null) lines.push({ key: 'summary.perVisitor', params: { count: perVisitor } });
  const perUser = state.perLoginUserEnabled ? parseInteger(state.perLoginUserMaxVisits) : null;
  if (perUser !== null) lines.push({ key: 'summary.perUser', params: { count: perUser } });

  if (state.watermarkEnabled) {
    const text = state.watermarkText.trim();
    lines.push(text ? { key: 'summary.watermarkText', params: { text } } : { key: 'summary.watermarkAuto' });
  }
  if (state.copyProtectionEnabled) lines.push({ key: 'summary.copyProtection' });
  if (state.burnAfterReadEnabled) lines.push({ key: 'summary.burn', tone: 'warning' });
  if (collection) lines.push({ key: 'collections.summary' });
  else lines.push(state.lockedVersionId ? { key: 'summary.pinned' } : { key: 'summary.latest' });
  if (state.notify !== 'off') lines.push({ key: `notifications.summary.${state.notify}` });
  return lines;
}
