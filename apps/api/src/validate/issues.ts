export type IssueLevel = 'error' | 'warning' | 'info';

export interface ValidationIssue {
  level: IssueLevel;
  message: string;
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

export function issueAt(level: IssueLevel, message: string, position?: Position): ValidationIssue {
  return position ? { level, message, line: position.line, col: position.col } : { level, message };
}

/** Keeps a report readable for pathological input: at most `limit` issues of one kind, then a summary. */
export class IssueCollector {
  readonly issues: ValidationIssue[] = [];
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit = 50) {}

  add(kind: string, issue: ValidationIssue): void {
    const count = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, count);
    if (count <= this.limit) this.issues.push(issue);
  }

  /** Appends "N more" summaries for kinds that hit the limit. */
  finish(describe: (kind: string) => string, levelOf: (kind: string) => ValidationIssue['level']): ValidationIssue[] {
    for (const [kind, count] of this.counts) {
      if (count > this.limit) {
        this.issues.push({ level: levelOf(kind), message: `另有 ${count - this.limit} 处同类问题未列出：${describe(kind)}` });
      }
    }
    return this.issues;
  }
}
