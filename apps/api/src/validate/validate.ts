import { AppError } from '../common/app-error.js';
import { LIMITS } from '@sharedown/contract/limits';
import type { FileKind } from '../files/file-names.js';
import { checkHtml } from './html-checks.js';
import type { ValidationIssue } from './issues.js';
import { checkMarkdown } from './markdown-checks.js';
import { normalize } from './normalize.js';
import { checkText } from './text-checks.js';

export const MAX_VALIDATE_CHARACTERS = LIMITS.validateChars;

export interface ValidationResult {
  kind: FileKind;
  ok: boolean;
  normalized: string;
  issues: ValidationIssue[];
}

/** Unicode code points in `text`, counting no further than `limit + 1`. */
export function codePointLengthExceeds(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  if (text.length > 2 * limit) return true;
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    if (++count > limit) return true;
  }
  return false;
}

function byPosition(a: ValidationIssue, b: ValidationIssue): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);
}

/**
 * Normalizes, then checks the normalized text (its line numbers equal the original's; columns
 * are those of the normalized text). `ok` is false exactly when an issue is an error. Text over
 * MAX_VALIDATE_CHARACTERS code points is refused (VALIDATION) before any work.
 */
export function validateDocument(content: string, kind: FileKind): ValidationResult {
  if (codePointLengthExceeds(content, MAX_VALIDATE_CHARACTERS)) {
    throw AppError.validation(`content 最多 ${MAX_VALIDATE_CHARACTERS} 个字符`, 'content');
  }
  const normalized = normalize(content);
  const issues = checkText(normalized);
  if (kind === 'HTML') issues.push(...checkHtml(normalized));
  else if (kind === 'MARKDOWN') issues.push(...checkMarkdown(normalized));
  issues.sort(byPosition);
  return { kind, ok: !issues.some((issue) => issue.level === 'error'), normalized, issues };
}
