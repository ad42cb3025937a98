import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';

const HOOK_URL = 'http://127.0.0.1:9/hook';

describe('webhook management', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
  });
  afterAll(async () => app?.cleanup());

  function raw(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    return fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function webhookIds(user: TestUser): Promise<string[]> {
    return (await unwrap(user.console.GET('/api/webhooks'))).webhooks.map((webhook) => webhook.id);
  }

  async function removeAll(user: TestUser): Promise<void> {
    for (const id of await webhookIds(user))
      await unwrap(user.console.DELETE('/api/webhooks/{id}', { params: { path: { id } } }));
  }

  describe('authentication', () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks', { url: HOOK_URL, events: ['share_visited'] }],
      ['PATCH', '/api/webhooks/00000000-0000-0000-0000-000000000000', { active: false }],
      ['DELETE', '/api/webhooks/00000000-0000-0000-0000-000000000000'],
      ['GET', '/api/webhooks/00000000-0000-0000-0000-000000000000/deliveries'],
    ];

    it.each(routes)('%s %s without a session is 401 UNAUTHENTICATED', async (method, path, body) => {
      const response = await raw(method, path, {}, body);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'UNAUTHENTICATED' });
    });

    it.each(routes)('%s %s with a valid bearer token is 403 FORBIDDEN', async (method, path, body) => {
      const response = await raw(method, path, { authorization: `Bearer ${alice.token}` }, body);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'FORBIDDEN' });
    });

    it('a bearer token creates nothing', async () => {
      await raw(
        'POST',
        '/api/webhooks',
        { authorization: `Bearer ${alice.token}` },
        { url: HOOK_URL, events: ['share_visited'] },
      );
      expect(await webhookIds(alice)).toEqual([]);
    });
  });

  describe('create and list', () => {
    it('returns exactly the spec fields and a 256-bit secret shown only once', async () => {
      const created = await alice.console.POST('/api/webhooks', {
        body: { url: HOOK_URL, events: ['share_visited', 'share_reported'] },
      });
      expect(created.response.status).toBe(200);
      const { webhook, secret } = created.data!;
      expect(Object.keys(created.data!).sort()).toEqual(['secret', 'webhook']);
      expect(Object.keys(webhook).sort()).toEqual(['active', 'createdAt', 'events', 'id', 'url']);
      expect(webhook).toMatchObject({ url: HOOK_URL, events: ['share_visited', 'share_reported'], active: true });
      expect(new Date(webhook.createdAt).toISOString()).toBe(webhook.createdAt);
      const material = Buffer.from(secret.replace(/^whsec_/, ''), 'base64url');
      expect(material.length * 8).toBeGreaterThanOrEqual(256);

      const listed = await alice.console.GET('/api/webhooks');
      expect(listed.response.status).toBe(200);
      expect(Object.keys(listed.data!)).toEqual(['webhooks']);
      expect(listed.data!.webhooks).toEqual([webhook]);
      expect(JSON.stringify(listed.data)).not.toContain(secret.slice(6));
      const deliveries = await alice.console.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: webhook.id } } });
      expect(deliveries.data).toEqual({ deliveries: [] });
      expect(await webhookIds(bob)).toEqual([]);
      await removeAll(alice);
    });

    it('gives every webhook its own secret', async () => {
      const first = await unwrap(alice.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_visited'] } }));
      const second = await unwrap(alice.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_visited'] } }));
      expect(first.secret).not.toBe(second.secret);
      await removeAll(alice);
    });

    it('accepts the reserved share_expiring_soon event and folds repeated names', async () => {
      const created = await unwrap(
        alice.console.POST('/api/webhooks', {
          body: { url: HOOK_URL, events: ['share_expiring_soon', 'share_visited', 'share_visited'] },
        }),
      );
      expect(created.webhook.events).toEqual(['share_visited', 'share_expiring_soon']);
      await removeAll(alice);
    });

    it.each([
      ['ftp url', { url: 'ftp://example.com/hook', events: ['share_visited'] }],
      ['javascript url', { url: 'javascript:alert(1)', events: ['share_visited'] }],
      ['relative url', { url: '/hook', events: ['share_visited'] }],
      ['credentials in url', { url: 'https://user:pass@example.com/hook', events: ['share_visited'] }],
      ['user in url', { url: 'https://user@example.com/hook', events: ['share_visited'] }],
      ['url over 2048 chars', { url: `https://example.com/${'a'.repeat(2030)}`, events: ['share_visited'] }],
      ['url not a string', { url: 42, events: ['share_visited'] }],
      ['missing url', { events: ['share_visited'] }],
      ['unknown event', { url: HOOK_URL, events: ['share_visited', 'share_deleted'] }],
      ['empty events', { url: HOOK_URL, events: [] }],
      ['events not an array', { url: HOOK_URL, events: 'share_visited' }],
      ['missing events', { url: HOOK_URL }],
      ['unknown field', { url: HOOK_URL, events: ['share_visited'], secret: 'mine' }],
    ])('400 VALIDATION for %s, nothing written', async (_name, body) => {
      const response = await raw('POST', '/api/webhooks', { cookie: alice.cookie }, body);
      expect(response.status).toBe(400);
      const refusal = await response.json();
      expect(refusal).toEqual({
        error: expect.any(String),
        code: 'VALIDATION',
        field: expect.stringMatching(/^(url|events|secret)$/),
      });
      expect(refusal.error).toContain(refusal.field);
      expect(await webhookIds(alice)).toEqual([]);
    });

    it('names the field in the validation message', async () => {
      const badUrl = await (
        await raw('POST', '/api/webhooks', { cookie: alice.cookie }, { url: 'ftp://x.example', events: ['share_visited'] })
      ).json();
      expect(badUrl.error).toContain('url');
      const badEvent = await (
        await raw('POST', '/api/webhooks', { cookie: alice.cookie }, { url: HOOK_URL, events: ['nope'] })
      ).json();
      expect(badEvent.error).toContain('events');
    });

    it('accepts a url of exactly 2048 characters', async () => {
      const base = 'https://example.com/';
      const url = base + 'a'.repeat(2048 - base.length);
      const created = await alice.console.POST('/api/webhooks', { body: { url, events: ['share_visited'] } });
      expect(created.response.status).toBe(200);
      expect(created.data!.webhook.url).toBe(url);
      await removeAll(alice);
    });
  });

  describe('pause, resume, delete', () => {
    it('pauses and resumes with PATCH {active}', async () => {
      const { webhook } = await unwrap(
        alice.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_visited'] } }),
      );
      const paused = await alice.console.PATCH('/api/webhooks/{id}', {
        params: { path: { id: webhook.id } },
        body: { active: false },
      });
      expect(paused.response.status).toBe(200);
      expect(paused.data!.webhook).toEqual({ ...webhook, active: false });
      const listed = await unwrap(alice.console.GET('/api/webhooks'));
      expect(listed.webhooks[0]!.active).toBe(false);
      const resumed = await unwrap(
        alice.console.PATCH('/api/webhooks/{id}', { params: { path: { id: webhook.id } }, body: { active: true } }),
      );
      expect(resumed.webhook.active).toBe(true);
      await removeAll(alice);
    });

    it.each([[{}], [{ active: 'false' }], [{ active: false, url: 'http://other.example/' }]])(
      '400 VALIDATION for PATCH body %j',
      async (body) => {
        const { webhook } = await unwrap(
          alice.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_visited'] } }),
        );
        const response = await raw('PATCH', `/api/webhooks/${webhook.id}`, { cookie: alice.cookie }, body);
        expect(response.status).toBe(400);
        expect((await response.json()).code).toBe('VALIDATION');
        expect((await unwrap(alice.console.GET('/api/webhooks'))).webhooks).toEqual([webhook]);
        await removeAll(alice);
      },
    );

    it("404 NOT_FOUND for someone else's webhook, an unknown id and a malformed id", async () => {
      const { webhook } = await unwrap(
        alice.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_visited'] } }),
      );
      for (const id of [webhook.id, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
        for (const [method, path, body] of [
          ['PATCH', `/api/webhooks/${id}`, { active: false }],
          ['DELETE', `/api/webhooks/${id}`, undefined],
          ['GET', `/api/webhooks/${id}/deliveries`, undefined],
        ] as const) {
          const response = await raw(method, path, { cookie: bob.cookie }, body);
          expect(response.status, `${method} ${path}`).toBe(404);
          expect((await response.json()).code).toBe('NOT_FOUND');
        }
      }
      expect((await unwrap(alice.console.GET('/api/webhooks'))).webhooks).toEqual([webhook]);
      await removeAll(alice);
    });

    it('deletes a webhook once', async () => {
      const { webhook } = await unwrap(
        alice.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_visited'] } }),
      );
      const deleted = await alice.console.DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.id } } });
      expect(deleted.response.status).toBe(200);
      expect(deleted.data!.webhook).toEqual(webhook);
      expect(await webhookIds(alice)).toEqual([]);
      const again = await alice.console.DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.id } } });
      expect(again.response.status).toBe(404);
    });
  });

  describe('at most 10 active webhooks', () => {
    it('refuses the 11th active one with 409 CONFLICT, counting only active ones', async () => {
      const created = [];
      for (let i = 0; i < 10; i++) {
        created.push(
          (await unwrap(alice.console.POST('/api/webhooks', { body: { url: `${HOOK_URL}/${i}`, events: ['share_visited'] } })))
            .webhook,
        );
      }
      const eleventh = await raw('POST', '/api/webhooks', { cookie: alice.cookie }, { url: HOOK_URL, events: ['share_visited'] });
      expect(eleventh.status).toBe(409);
      expect(await eleventh.json()).toEqual({ error: expect.any(String), code: 'CONFLICT' });
      expect(await webhookIds(alice)).toHaveLength(10);

      // Another user has a limit of their own.
      expect(
        (await bob.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_visited'] } })).response.status,
      ).toBe(200);

      const paused = created[0]!;
      await unwrap(alice.console.PATCH('/api/webhooks/{id}', { params: { path: { id: paused.id } }, body: { active: false } }));
      const replacement = await alice.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_reported'] } });
      expect(replacement.response.status).toBe(200);

      const resume = await raw('PATCH', `/api/webhooks/${paused.id}`, { cookie: alice.cookie }, { active: true });
      expect(resume.status).toBe(409);
      expect((await resume.json()).code).toBe('CONFLICT');
      const stillPaused = (await unwrap(alice.console.GET('/api/webhooks'))).webhooks.find((w) => w.id === paused.id)!;
      expect(stillPaused.active).toBe(false);

      await unwrap(alice.console.DELETE('/api/webhooks/{id}', { params: { path: { id: created[1]!.id } } }));
      const resumed = await alice.console.PATCH('/api/webhooks/{id}', {
        params: { path: { id: paused.id } },
        body: { active: true },
      });
      expect(resumed.response.status).toBe(200);
      await removeAll(alice);
      await removeAll(bob);
    });

    it('lets only one of several parallel creations take the last slot', async () => {
      for (let i = 0; i < 9; i++)
        await unwrap(alice.console.POST('/api/webhooks', { body: { url: HOOK_URL, events: ['share_visited'] } }));
      const statuses = await Promise.all(
        Array.from(
          { length: 4 },
          async () =>
            (await raw('POST', '/api/webhooks', { cookie: alice.cookie }, { url: HOOK_URL, events: ['share_visited'] })).status,
        ),
      );
      expect(statuses.sort()).toEqual([200, 409, 409, 409]);
      expect(await webhookIds(alice)).toHaveLength(10);
      await removeAll(alice);
    });
  });

  it('is described in the OpenAPI document under the console tag', async () => {
    const document = await (await fetch(`${app.baseUrl}/api/openapi.json`)).json();
    for (const [path, methods] of [
      ['/api/webhooks', ['get', 'post']],
      ['/api/webhooks/{id}', ['patch', 'delete']],
      ['/api/webhooks/{id}/deliveries', ['get']],
    ] as const) {
      for (const method of methods) expect(document.paths[path][method].tags, `${method} ${path}`).toContain('console');
    }
  });
});
