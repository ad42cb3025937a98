import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { Env } from '../config/env.js';
import type { FinishedRequest } from '../http/request-observer.js';
import { logLevels } from './log-levels.js';
import { stdoutBatch, type StdoutBatch } from './stdout-batch.js';

const CONTEXT = 'HTTP';

/**
 * Nest's readable line, as its console logger writes it, into a batch of standard output lines
 * instead of a write of its own. The timestamp (to the second) is formatted once a second: Nest
 * formats it with Intl for every line.
 */
class BatchedConsoleLogger extends ConsoleLogger {
  private second = -1;
  private stamp = '';

  constructor(
    levels: LogLevel[],
    private readonly out: StdoutBatch,
  ) {
    super(CONTEXT, { logLevels: levels });
  }

  protected override getTimestamp(): string {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.stamp = super.getTimestamp();
    }
    return this.stamp;
  }

  protected override printMessages(messages: unknown[], context = '', logLevel: LogLevel = 'log'): void {
    for (const message of messages) {
      const level = logLevel.toUpperCase().padStart(7, ' ');
      this.out.write(
        this.formatMessage(
          logLevel,
          message,
          this.formatPid(process.pid),
          level,
          this.formatContext(context),
          this.updateAndGetTimestampDiff(),
        ),
      );
    }
  }
}

/**
 * A request's JSON line, with the members and in the order JsonLogger (pino) writes any line:
 * level, time, pid, the logged object's members, context, msg (request-log.spec.ts compares the
 * two). Written here rather than through pino: its members are fixed, and none can hold a secret
 * (the route is the template, never the URL), so it needs neither pino's redaction (about 14 µs a
 * line) nor its general serializer (about 4 µs more than this).
 */
function jsonLine(finished: FinishedRequest, durationMs: number): string {
  return (
    `{"level":"info","time":"${new Date().toISOString()}","pid":${process.pid},"reqId":${JSON.stringify(finished.id)},` +
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
    else if (json) this.line = (finished, durationMs) => out.write(jsonLine(finished, durationMs));
    else {
      const console = new BatchedConsoleLogger(levels, out);
      this.line = (finished, durationMs) =>
        console.log(`${finished.method} ${finished.route} ${finished.statusCode} ${durationMs} ms (request ${finished.id})`);
    }
  }

  write(finished: FinishedRequest): void {
    this.line?.(finished, Math.round(finished.seconds * 10_000) / 10);
  }
}
