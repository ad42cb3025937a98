import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetGatesOnWrites } from './forget-gates-on-writes.js';
import type { ShareGateCache } from './share-gate-cache.js';

describe(forgetGatesOnWrites.name, () => {
  const app = Fastify();
  let cleared = 0;
  let clearedWhenAnswered = -1;
  forgetGatesOnWrites(app, { clear: () => cleared++ } as unknown as ShareGateCache);
  for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const) {
    app.route({ method, url: '/api/v1/shares/x', handler: async () => ({ ok: true }) });
  }
  app.post('/s/alice/tok', async () => 'revealed');
  app.post('/s/_beacon', async () => '');
  // What the answer's last hook sees: the cache was dropped before the answer left.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    clearedWhenAnswered = cleared;
    done(null, payload);
  });
  afterEach(() => {
    cleared = 0;
  });

  it.each(['POST', 'PATCH', 'DELETE'] as const)('drops the held gate rows before a %s answer leaves', async (method) => {
    await app.inject({ method, url: '/api/v1/shares/x' });
    expect(cleared).toBe(1);
    expect(clearedWhenAnswered).toBe(1);
  });

  it("drops them after a viewer form too (a reveal uses a link up), but not after a page's beacon", async () => {
    await app.inject({ method: 'POST', url: '/s/alice/tok' });
    expect(cleared).toBe(1);
    await app.inject({ method: 'POST', url: '/s/_beacon' });
    expect(cleared).toBe(1);
  });

  it.each(['GET', 'HEAD'] as const)('keeps them across a %s', async (method) => {
    await app.inject({ method, url: '/api/v1/shares/x' });
    expect(cleared).toBe(0);
  });
});
