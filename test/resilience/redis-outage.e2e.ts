import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { startRedis } from '../support/redis-server.js';

describe('Redis down while REDIS_URL is set', () => {
  let app: RunningApp;
  let user: TestUser;
  let redis: Awaited<ReturnType<typeof startRedis>>;

  beforeAll(async () => {
    redis = await startRedis();
    app = await startApp({ env: { REDIS_URL: redis.url } });
    user = await createUser(app.baseUrl);
  });
  afterAll(async () => {
    await app?.cleanup();
    await redis?.stop();
  });

  const me = () => fetch(`${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${user.token}` } });

  it('answers 503 UNAVAILABLE envelopes and a failing health check, then recovers when Redis returns', async () => {
    expect((await me()).status).toBe(200);
    await redis.stop();

    const during = await me();
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await during.json()).toEqual({ error: expect.any(String), code: 'UNAVAILABLE' });
    const health = await fetch(`${app.baseUrl}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, queue: 'down' });
    expect(app.process.exitCode).toBeNull();

    redis = await startRedis(redis.port);
    let recovered = false;
    for (let attempt = 0; attempt < 100 && !recovered; attempt++) {
      recovered = (await me()).status === 200 && (await fetch(`${app.baseUrl}/healthz`)).status === 200;
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(true);
  });
});
