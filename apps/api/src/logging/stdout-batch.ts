import { writeSync } from 'node:fs';

/** How long a line may wait for others: a log is read by people and collectors, not by the request. */
export const STDOUT_BATCH_MS = 100;
/** Pending text that is written at once, whatever the time: a burst does not grow the buffer without end. */
const STDOUT_BATCH_BYTES = 64 * 1024;

/**
 * Lines for standard output, written together at most every STDOUT_BATCH_MS (or once 64 KiB wait):
 * a write a line is a system call (synchronous on Linux for a file, a pipe or a terminal) and, on a
 * pipe, a wake-up of the process reading it (a terminal, journald, Docker's log driver); under a
 * view load, a request log line a view written on its own cost the api more than a tenth of its
 * CPU. Lines keep their order; what is pending when the process exits is written synchronously on
 * the way out, so a crash's last lines are not lost with the buffer (only a SIGKILL can take them).
 */
export class StdoutBatch {
  private pending: string[] = [];
  private pendingLength = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly out: (text: string) => void = (text) => void process.stdout.write(text)) {}

  /** Queues `line` (newline included); the signature of a stream's write, for pino. */
  write(line: string): boolean {
    this.pending.push(line);
    this.pendingLength += line.length;
    if (this.pendingLength >= STDOUT_BATCH_BYTES) this.flush();
    else if (!this.timer) this.timer = setTimeout(this.flush, STDOUT_BATCH_MS).unref();
    return true;
  }

  readonly flush = (): void => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const text = this.take();
    if (text) this.out(text);
  };

  /** On the way out: the event loop will not turn again. */
  flushSync(): void {
    const text = this.take();
    if (text) writeSync(1, text);
  }

  private take(): string {
    if (this.pending.length === 0) return '';
    const text = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    return text;
  }
}

let shared: StdoutBatch | null = null;

/** The process's one batch of standard output lines (flushed at exit). */
export function stdoutBatch(): StdoutBatch {
  if (!shared) {
    const batch = (shared = new StdoutBatch());
    process.once('exit', () => batch.flushSync());
  }
  return shared;
}
