/**
 * The stable code of every issue the validate operation reports, so a client can word it in its
 * own language (the `message` is Chinese). `params` carry the specifics a message names.
 */
export const ISSUE_CODES = [
  // Text, every kind
  'CONTROL_CHARACTER',
  'FORM_FEED',
  'BARE_CR',
  'LONE_SURROGATE',
  'REPLACEMENT_CHARACTER',
  // HTML
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
  // Markdown
  'UNCLOSED_FENCE',
  'UNDEFINED_REFERENCE',
  'REFUSED_LINK',
  'STRIPPED_TAG',
  'STRIPPED_ATTRIBUTE',
  // More issues of one code than a report lists: params.count of params.code.
  'MORE_ISSUES',
] as const;

export type IssueCode = (typeof ISSUE_CODES)[number];
