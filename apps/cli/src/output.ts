import Table from 'cli-table3';
import pc from 'picocolors';
import type { CliIo } from './io.js';

type Colors = ReturnType<typeof pc.createColors>;

/** Colours only for a terminal, and never when NO_COLOR is set (FORCE_COLOR forces them). */
function colorsEnabled(stream: { isTTY?: boolean }, env: CliIo['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/** Human output (tables, colours on a TTY) or, with --json, exactly one JSON document on stdout. */
export class Output {
  readonly color: Colors;
  readonly errColor: Colors;

  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {
    this.color = pc.createColors(colorsEnabled(io.stdout, io.env));
    this.errColor = pc.createColors(colorsEnabled(io.stderr, io.env));
  }

  /** In --json mode prints `value`; otherwise runs `human`. */
  result(value: unknown, human: () => void): void {
    if (this.json) this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    else human();
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** Side information for people; goes to stderr so stdout stays pipeable. */
  note(text: string): void {
    if (!this.json) this.io.stderr.write(`${text}\n`);
  }

  table(head: string[], rows: (string | number)[][]): void {
    if (!rows.length) {
      this.line(this.color.dim('(none)'));
      return;
    }
    const table = new Table({
      head: head.map((title) => this.color.bold(title)),
      style: { head: [], border: [] },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    });
    table.push(...rows.map((row) => row.map(String)));
    this.line(table.toString());
  }

  /** A two-column key/value listing for one object. */
  fields(pairs: [string, string | number | null | undefined][]): void {
    const width = Math.max(...pairs.map(([key]) => key.length));
    for (const [key, value] of pairs) {
      if (value === undefined) continue;
      this.line(`${this.color.dim(key.padEnd(width))}  ${value === null ? this.color.dim('—') : value}`);
    }
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}
