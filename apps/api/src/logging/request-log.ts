import { Logger } from '@nestjs/common';
import type { FinishedRequest } from '../http/request-observer.js';

/**
 * One line per answered request: its id, method, route template, status and duration. Never the
 * URL, its query, headers or body: viewer paths carry share tokens and tickets, forms carry
 * passwords, headers carry cookies and tokens.
 */
export class RequestLog {
  private readonly logger = new Logger('HTTP');

  constructor(private readonly json: boolean) {}

  write(finished: FinishedRequest): void {
    const durationMs = Math.round(finished.seconds * 10_000) / 10;
    if (this.json) {
      this.logger.log({
        msg: 'request',
        reqId: finished.id,
        method: finished.method,
        route: finished.route,
        status: finished.statusCode,
        durationMs,
      });
    } else {
      this.logger.log(`${finished.method} ${finished.route} ${finished.statusCode} ${durationMs} ms (request ${finished.id})`);
    }
  }
}
