import type { IssueCode } from './issue-codes.js';

export type IssueLevel = 'error' | 'warning' | 'info';

export interface ValidationIssue {
  level: IssueLevel;
  code: IssueCode;
  message: string;
  /** What the message names (a tag, an attribute, a character …), for clients that word the code themselves. */
  params?: Record<string, string>;
  line?: number;
  col?: number;
}

export interface Position {
  line: number;
  col: number;
}

/** Maps string offsets to 1-based line and column (columns count UTF-16 code units). */
export function createLocator(text: string): (offset: number) => Position {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lineStarts.push(index + 1);
  return (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, col: offset - lineStarts[low]! + 1 };
  };
}

export function issueAt(
  level: IssueLevel,
  code: IssueCode,
  message: string,
  position?: Position,
  params?: Record<string, string | number>,
): ValidationIssue {
  const issue: ValidationIssue = { level, code, message };
  if (params) issue.params = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)]));
  if (position) Object.assign(issue, { line: position.line, col: position.col });
  return issue;
}

/** Keeps a report readable for pathological input: at most `limit` issues of one kind, then a summary. */
export class IssueCollector {
  readonly issues: ValidationIssue[] = [];
  private readonly counts = new Map<IssueCode, { count: number; level: IssueLevel }>();

  constructor(private readonly limit = 50) {}

  add(issue: ValidationIssue): void {
    const count = (this.counts.get(issue.code)?.count ?? 0) + 1;
    this.counts.set(issue.code, { count, level: issue.level });
    if (count <= this.limit) this.issues.push(issue);
  }

  /** Appends "N more" summaries (MORE_ISSUES) for codes that hit the limit. */
  finish(describe: (code: IssueCode) => string): ValidationIssue[] {
    for (const [code, { count, level }] of this.counts) {
      if (count > this.limit) {
        const more = count - this.limit;
        this.issues.push(
          issueAt(level, 'MORE_ISSUES', `另有 ${more} 处同类问题未列出：${describe(code)}`, undefined, { count: more, code }),
        );
      }
    }
    return this.issues;
  }
}
