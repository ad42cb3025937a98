import type { LocaleTag } from './locales.js';
import { formatMessage, type CatalogOf } from './message-format.js';
import de from './messages/de.js';
import en from './messages/en.js';
import es from './messages/es.js';
import fr from './messages/fr.js';
import ja from './messages/ja.js';
import zhCN from './messages/zh-CN.js';

/** What the console and the CLI both say: api errors and validation issues, by their stable codes. */
export type SharedMessages = CatalogOf<typeof en>;

export const SHARED_MESSAGES: Record<LocaleTag, SharedMessages> = { 'zh-CN': zhCN, en, ja, de, fr, es };

/** An api refusal as the envelope gives it: the contract's code, and the field of a VALIDATION error. */
export interface ApiRefusal {
  code: string;
  field?: string | null;
  retryAfterSeconds?: number | null;
}

/** An api refusal in the words of one language, from its code (the envelope's text is Chinese). */
export function apiErrorText(messages: SharedMessages, refusal: ApiRefusal): string {
  const words = messages.apiErrors;
  const base = (words as Record<string, string>)[refusal.code] ?? words.INTERNAL;
  const parts = [base];
  if (refusal.code === 'VALIDATION' && refusal.field) parts.push(formatMessage(words.field, { field: refusal.field }));
  if (refusal.code === 'RATE_LIMITED' && refusal.retryAfterSeconds)
    parts.push(formatMessage(words.retryIn, { seconds: refusal.retryAfterSeconds }));
  return parts.join(' ');
}

/** A validation issue as the api reports it. */
export interface IssueLike {
  code: string;
  message: string;
  params?: Record<string, string>;
}

/** A validation issue in the words of one language, from its code and params; the api's text for a code this version does not know. */
export function issueText(messages: SharedMessages, issue: IssueLike): string {
  const template = (messages.issues as Record<string, string>)[issue.code];
  if (template === undefined) return issue.message;
  const params: Record<string, string> = { ...issue.params };
  if (issue.code === 'MORE_ISSUES') {
    params.kind = (messages.issueKinds as Record<string, string>)[params.code ?? ''] ?? params.code ?? '';
  }
  return formatMessage(template, params);
}
