import { exactList } from './exact-list.js';
import type { components } from './schema.js';

type Schemas = components['schemas'];

export type ScanStatus = Schemas['ScanStatus'];
/** Antivirus states of a file: only CLEAN files are shown to visitors; INFECTED ones are quarantined. */
export const SCAN_STATUSES = exactList<ScanStatus>()(['PENDING', 'CLEAN', 'INFECTED', 'SCAN_ERROR']);

export type IssueLevel = Schemas['ValidationIssueDto']['level'];
/** Levels of a validation issue; a result is ok when none has level `error`. */
export const ISSUE_LEVELS = exactList<IssueLevel>()(['error', 'warning', 'info']);

export type ErrorCode = Schemas['ErrorCode'];
/** The `code` of every error envelope; clients word each in their own language. */
export const ERROR_CODES = exactList<ErrorCode>()([
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'VALIDATION',
  'RATE_LIMITED',
  'OVER_QUOTA',
  'INFECTED',
  'SLUG_TAKEN',
  'DUPLICATE',
  'CONFLICT',
  'INTERNAL',
  'UNAVAILABLE',
]);

export type IssueCode = Schemas['ValidationIssueCode'];
/** The stable code of every issue the validate operation reports; clients word each in their own language. */
export const ISSUE_CODES = exactList<IssueCode>()([
  'CONTROL_CHARACTER',
  'FORM_FEED',
  'BARE_CR',
  'LONE_SURROGATE',
  'REPLACEMENT_CHARACTER',
  'UNCLOSED_TAG',
  'MISMATCHED_END_TAG',
  'STRAY_END_TAG',
  'DUPLICATE_ID',
  'DUPLICATE_ATTRIBUTE',
  'SCRIPT_ELEMENT',
  'EVENT_HANDLER',
  'JAVASCRIPT_URL',
  'SELF_CLOSING_NON_VOID',
  'MISSING_DOCTYPE',
  'MISSING_TITLE',
  'UNCLOSED_FENCE',
  'UNDEFINED_REFERENCE',
  'REFUSED_LINK',
  'STRIPPED_TAG',
  'STRIPPED_ATTRIBUTE',
  'MORE_ISSUES',
]);
