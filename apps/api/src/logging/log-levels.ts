import type { LogLevel } from '@nestjs/common';
import type { Env } from '../config/env.js';

/** Nest's levels that LOG_LEVEL lets through, or false for none (`silent`). */
export function logLevels(level: Env['LOG_LEVEL']): LogLevel[] | false {
  const order: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  const cut = { silent: 0, fatal: 1, error: 2, warn: 3, info: 4, debug: 5, trace: 6 }[level];
  return cut === 0 ? false : order.slice(0, cut);
}
