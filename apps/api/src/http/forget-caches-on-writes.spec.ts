import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthenticatedRequest } from '../auth/auth-context.js';
import type { TokenIdentityCache } from '../auth/tokens/token-identity-cache.js';
import type { ShareGateCache } from '../viewer/gate/share-gate-cache.js';
import { forgetCachesOnWrites } from './forget-caches-on-writes.js';

describe(forgetCachesOnWrites.name, () => {
  const app = Fastify();
  let cleared = 0;
  let clearedWhenAnswered = -1;
  let forgotten: string[] = [];
  let forgottenWhenAnswered: string[] = [];
  forgetCachesOnWrites(
    app,
    { clear: () => cleared++ } as unknown as ShareGateCache,
    { forgetUser: (userId: string) => forgotten.push(userId) } as unknown as TokenIdentityCache,
  );
  // A signed-in caller, as the auth guards leave it on the request; `?anonymous` has none.
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.url.endsWith('?anonymous')) {
      (request as AuthenticatedRequest).auth = {
        user: { id: 'user-1' } as never,
        actor: { id: 'user-1' } as never,
        role: 'OWNER',
        source: 'token',
        tokenId: 'token-1',
        sessionId: null,
      };
    }
    done();
  });
  for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const) {
    app.route({ method, url: '/api/v1/shares/x', handler: async () => ({ ok: true }) });
  }
  app.post('/s/alice/tok', async () => 'revealed');
  app.post('/s/alice/wrong', async (_request, reply) => reply.status(401).send('wrong password'));
  app.post('/api/v1/failing', async (_request, reply) => reply.status(500).send({ error: 'failed', code: 'INTERNAL' }));
  app.post('/s/_beacon', async () => '');
  // What the answer's last hook sees: the caches were dropped before the answer left.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    clearedWhenAnswered = cleared;
    forgottenWhenAnswered = [...forgotten];
    done(null, payload);
  });
  afterEach(() => {
    cleared = 0;
    forgotten = [];
  });

  it.each(['POST', 'PATCH', 'DELETE'] as const)(
    "drops the held gate rows and the caller's account before a %s answer leaves",
    async (method) => {
      await app.inject({ method, url: '/api/v1/shares/x' });
      expect(cleared).toBe(1);
      expect(clearedWhenAnswered).toBe(1);
      expect(forgottenWhenAnswered).toEqual(['user-1']);
    },
  );

  it('drops the gate rows after an anonymous write, with no account to forget', async () => {
    await app.inject({ method: 'POST', url: '/api/v1/shares/x?anonymous' });
    expect(cleared).toBe(1);
    expect(forgotten).toEqual([]);
  });

  it("drops them after a viewer form too (a reveal uses a link up), but not after a page's beacon", async () => {
    await app.inject({ method: 'POST', url: '/s/alice/tok' });
    expect(cleared).toBe(1);
    await app.inject({ method: 'POST', url: '/s/_beacon' });
    expect(cleared).toBe(1);
  });

  it('keeps both across a refused write (4xx wrote nothing), but not across a failed one (5xx may have)', async () => {
    await app.inject({ method: 'POST', url: '/s/alice/wrong' });
    expect(cleared).toBe(0);
    expect(forgotten).toEqual([]);
    await app.inject({ method: 'POST', url: '/api/v1/failing' });
    expect(cleared).toBe(1);
    expect(forgotten).toEqual(['user-1']);
  });

  it.each(['GET', 'HEAD'] as const)('keeps both across a %s', async (method) => {
    await app.inject({ method, url: '/api/v1/shares/x' });
    expect(cleared).toBe(0);
    expect(forgotten).toEqual([]);
  });
});
