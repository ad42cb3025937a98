import type { Env } from '../config/env.js';

/** What main.ts resolved before Nest starts: the validated env, the database address, secrets. */
export interface Runtime {
  env: Env;
  databaseUrl: string;
  /** SESSION_SECRET, or the one generated once and kept in DATA_DIR. Signs viewer cookies. */
  sessionSecret: string;
}

export const RUNTIME = Symbol('RUNTIME');
