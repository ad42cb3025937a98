import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Env } from './env.js';

/** SESSION_SECRET when set; otherwise one generated on first start and kept in DATA_DIR. */
export async function loadSessionSecret(env: Env): Promise<string> {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  const file = join(env.DATA_DIR, 'session-secret');
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length >= 32) return stored;
  } catch {
    // first start
  }
  const secret = randomBytes(48).toString('base64url');
  await mkdir(env.DATA_DIR, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
