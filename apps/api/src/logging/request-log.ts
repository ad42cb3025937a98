import { ConsoleLogger } from '@nestjs/common';
import type { Env } from '../config/env.js';
import type { FinishedRequest } from '../http/request-observer.js';
import { logLevels } from './log-levels.js';
import { stdoutBatch, type StdoutBatch } from './stdout-batch.js';

const CONTEXT = 'HTTP';

/** Stands for the message while the message's colour codes are learnt from Nest. */
const MESSAGE_MARK = '\u0000';

/**
 * A request's readable line, byte for byte as Nest's console logger writes a line of level log
 * and context HTTP, into a batch of standard output lines instead of a write of its own. The line
 * is put together from parts Nest made once, when the log was made: Nest colours each part of
 * every line anew, and reads NO_COLOR from the environment for each (four reads, about 0.2 µs
 * each, per request). The timestamp (to the second) is formatted once a second: Nest formats it
 * with Intl for every line.
 */
class ReadableRequestLine extends ConsoleLogger {
  private second = -1;
  private stamp = '';
  private readonly pidPart: string;
  private readonly levelPart: string;
  private readonly contextPart: string;
  private readonly messageOpen: string;
  private readonly messageClose: string;

  constructor(private readonly out: StdoutBatch) {
    super(CONTEXT);
    this.pidPart = this.colorize(this.formatPid(process.pid), 'log');
    this.levelPart = this.colorize('log'.toUpperCase().padStart(7, ' '), 'log');
    this.contextPart = this.formatContext(CONTEXT);
    [this.messageOpen = '', this.messageClose = ''] = this.colorize(MESSAGE_MARK, 'log').split(MESSAGE_MARK);
  }

  protected override getTimestamp(): string {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.stamp = super.getTimestamp();
    }
    return this.stamp;
  }

  write(message: string): void {
    this.out.write(
      `${this.pidPart}${this.getTimestamp()} ${this.levelPart} ${this.contextPart}` +
        `${this.messageOpen}${message}${this.messageClose}${this.updateAndGetTimestampDiff()}\n`,
    );
  }
}

/** `Date#toISOString()` of now, made once a millisecond: it costs about 0.8 µs, a request's line would pay it each time. */
class IsoClock {
  private millisecond = -1;
  private text = '';

  now(): string {
    const millisecond = Date.now();
    if (millisecond !== this.millisecond) {
      this.millisecond = millisecond;
      this.text = new Date(millisecond).toISOString();
    }
    return this.text;
  }
}

/**
 * A request's JSON line, with the members and in the order JsonLogger (pino) writes any line:
 * level, time, pid, the logged object's members, context, msg (request-log.spec.ts compares the
 * two). Written here rather than through pino: its members are fixed, and none can hold a secret
 * (the route is the template, never the URL), so it needs neither pino's redaction (about 14 µs a
 * line) nor its general serializer (about 4 µs more than this).
 */
function jsonLine(finished: FinishedRequest, durationMs: number, clock: IsoClock): string {
  return (
    `{"level":"info","time":"${clock.now()}","pid":${process.pid},"reqId":${JSON.stringify(finished.id)},` +
    `"method":${JSON.stringify(finished.method)},"route":${JSON.stringify(finished.route)},"status":${finished.statusCode},` +
    `"durationMs":${durationMs},"context":"${CONTEXT}","msg":"request"}\n`
  );
}

/**
 * One line per answered request: its id, method, route template, status and duration. Never the
 * URL, its query, headers or body: viewer paths carry share tokens and tickets, forms carry
 * passwords, headers carry cookies and tokens.
 *
 * The lines look as every other log line of the process does (JSON as pino writes it, or Nest's
 * readable line, at LOG_LEVEL), but cost a view much less: they are written in batches
 * (stdout-batch.ts), not a write each; the JSON line is written without pino (`jsonLine`) and the
 * readable one formats its timestamp once a second.
 */
export class RequestLog {
  /** How this process writes a request's line; null when LOG_LEVEL is below info. */
  private readonly line: ((finished: FinishedRequest, durationMs: number) => void) | null;

  constructor(json: boolean, level: Env['LOG_LEVEL'], out: StdoutBatch = stdoutBatch()) {
    const levels = logLevels(level);
    if (!levels || !levels.includes('log')) this.line = null;
    else if (json) {
      const clock = new IsoClock();
      this.line = (finished, durationMs) => out.write(jsonLine(finished, durationMs, clock));
    } else {
      const readable = new ReadableRequestLine(out);
      this.line = (finished, durationMs) =>
        readable.write(`${finished.method} ${finished.route} ${finished.statusCode} ${durationMs} ms (request ${finished.id})`);
    }
  }

  write(finished: FinishedRequest): void {
    this.line?.(finished, Math.round(finished.seconds * 10_000) / 10);
  }
}
