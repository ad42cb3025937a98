import type { Env } from '../config/env.js';

/** JSON lines when asked (LOG_FORMAT=json) or in production (NODE_ENV=production), unless LOG_FORMAT=text. */
export function logsAsJson(env: Pick<Env, 'LOG_FORMAT' | 'NODE_ENV'>): boolean {
  return env.LOG_FORMAT ? env.LOG_FORMAT === 'json' : env.NODE_ENV === 'production';
}
