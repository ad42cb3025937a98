import { ConsoleLogger, type LogLevel, type LoggerService } from '@nestjs/common';
import type { Env } from '../config/env.js';
import type { FinishedRequest } from '../http/request-observer.js';
import { logLevels } from './log-levels.js';
import { JsonLogger } from './json-logger.js';
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
 * One line per answered request: its id, method, route template, status and duration. Never the
 * URL, its query, headers or body: viewer paths carry share tokens and tickets, forms carry
 * passwords, headers carry cookies and tokens.
 *
 * The lines look as every other log line of the process does (JSON through pino, or Nest's
 * readable line, at LOG_LEVEL), but cost a view much less: they are written in batches
 * (stdout-batch.ts), not a write each; the JSON line skips pino's redaction (about 14 µs a line,
 * more than a bare answer costs) and the readable one formats its timestamp once a second.
 */
export class RequestLog {
  private readonly logger: LoggerService | null;

  constructor(
    private readonly json: boolean,
    level: Env['LOG_LEVEL'],
    out: StdoutBatch = stdoutBatch(),
  ) {
    const levels = logLevels(level);
    // Its fields are fixed, and none can carry a secret (the route is the template, never the URL): no redaction.
    if (json) this.logger = new JsonLogger(level, out, { redactSecrets: false });
    else this.logger = levels && levels.includes('log') ? new BatchedConsoleLogger(levels, out) : null;
  }

  write(finished: FinishedRequest): void {
    if (!this.logger) return;
    const durationMs = Math.round(finished.seconds * 10_000) / 10;
    if (this.json) {
      this.logger.log(
        {
          msg: 'request',
          reqId: finished.id,
          method: finished.method,
          route: finished.route,
          status: finished.statusCode,
          durationMs,
        },
        CONTEXT,
      );
    } else {
      this.logger.log(`${finished.method} ${finished.route} ${finished.statusCode} ${durationMs} ms (request ${finished.id})`);
    }
  }
}
