import type { LoggerService } from '@nestjs/common';
import { pino, type Logger as Pino, type DestinationStream } from 'pino';
import type { Env } from '../config/env.js';

/**
 * Field names that never reach a log line with their value, wherever they sit in a logged object:
 * credentials, share passwords, cookies, tickets and share tokens.
 */
const SECRET_FIELDS = ['authorization', 'cookie', 'set-cookie', 'password', 'token', 'plaintext', 'ticket', 'secret'];
const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  ...SECRET_FIELDS.map((field) => `*.*.${field}`),
];

/**
 * Nest's logger on pino: one JSON object per line (`time`, `level`, `context`, `msg`, and the
 * members of a logged object), for log collectors. Nest passes the context as the last string
 * argument, and an error's stack before it.
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(level: Env['LOG_LEVEL'], destination?: DestinationStream) {
    this.pino = pino(
      {
        level,
        base: { pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      },
      destination ?? pino.destination({ dest: 1, sync: true }),
    );
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', message: unknown, rest: unknown[]): void {
    const strings = rest.filter((value): value is string => typeof value === 'string');
    const context = strings.length ? strings[strings.length - 1] : undefined;
    const stack = level === 'error' && strings.length > 1 ? strings[0] : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (message !== null && typeof message === 'object') {
      const { msg, ...members } = message as Record<string, unknown>;
      this.pino[level]({ ...members, ...fields }, typeof msg === 'string' ? msg : '');
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
