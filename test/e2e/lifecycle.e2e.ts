import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, startApp } from '../support/app.js';

const API_MAIN = fileURLToPath(new URL('../../apps/api/dist/main.js', import.meta.url));

describe('process lifecycle', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it.each([
    ['PORT', 'not-a-port'],
    ['ROLE', 'everything'],
    ['DATABASE_URL', 'mysql://x'],
    ['DEFAULT_QUOTA_BYTES', '-5'],
    ['ALLOW_REGISTRATION', 'maybe'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses to start with a bad %s and names the key', (key, value) => {
    const result = spawnSync(process.execPath, [API_MAIN], {
      env: { PATH: process.env.PATH, [key]: value },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(key);
  });

  it('keeps users and tokens across a restart with the same DATA_DIR', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sharedown-restart-'));
    dirs.push(dataDir);
    const first = await startApp({ dataDir, backend: 'embedded' });
    const user = await createUser(first.baseUrl);
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await startApp({ dataDir, backend: 'embedded' });
    try {
      const me = await fetch(`${second.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${user.token}` } });
      expect(me.status).toBe(200);
      expect((await me.json()).user.email).toBe(user.email);
      const login = await fetch(`${second.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      expect(login.status).toBe(200);
    } finally {
      await second.cleanup();
    }
  });

  it('refuses registration when ALLOW_REGISTRATION=false', async () => {
    const app = await startApp({ env: { ALLOW_REGISTRATION: 'false' } });
    try {
      const response = await fetch(`${app.baseUrl}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'new@example.com', password: 'long enough' }),
      });
      expect(response.status).toBe(403);
      expect((await response.json()).code).toBe('FORBIDDEN');
    } finally {
      await app.cleanup();
    }
  });
});
