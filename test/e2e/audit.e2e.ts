import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { WebhookReceiver, shareMarkdown } from '../support/webhook-receiver.js';

describe('audit trail: GET /api/audit', () => {
  let app: RunningApp;
  let receiver: WebhookReceiver;
  let alice: TestUser;
  let bob: TestUser;

  const signIn = (user: TestUser, password: string) =>
    fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.baseUrl, 'x-forwarded-for': '198.51.100.9' },
      body: JSON.stringify({ email: user.email, password }),
    });

  beforeAll(async () => {
    [app, receiver] = await Promise.all([startApp(), new WebhookReceiver().start()]);
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
  });
  afterAll(async () => {
    await Promise.all([app?.cleanup(), receiver?.close()]);
  });

  it("records an account's security actions, newest first, with the masked network and never a secret", async () => {
    expect((await signIn(alice, 'not the password')).status).toBe(401);
    expect((await signIn(alice, alice.password)).status).toBe(200);
    const token = await unwrap(alice.console.POST('/api/tokens', { body: { name: 'ci' } }));
    await unwrap(alice.console.DELETE('/api/tokens/{id}', { params: { path: { id: token.token.id } } }));
    const webhook = await unwrap(
      alice.console.POST('/api/webhooks', { body: { url: receiver.url('/h'), events: ['share_visited'] as never } }),
    );
    await unwrap(alice.console.DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.webhook.id } } }));
    const doc = await shareMarkdown(app.baseUrl, alice, 'audited.md');
    await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: doc.shareId } } }));
    await unwrap(alice.api.DELETE('/api/v1/files/{id}', { params: { path: { id: doc.fileId } } }));
    await unwrap(alice.console.POST('/api/console/trash/files/{id}/restore', { params: { path: { id: doc.fileId } } }));

    const { events, nextCursor } = await unwrap(alice.console.GET('/api/audit'));
    expect(nextCursor).toBeNull();
    expect(events.map((event) => event.action)).toEqual([
      'file.restored',
      'file.deleted',
      'share.revoked',
      'share.created',
      'webhook.deleted',
      'webhook.created',
      'token.revoked',
      'token.created',
      'sign_in.succeeded',
      'sign_in.failed',
      // createUser: registration signs in, then makes the suite's token
      'token.created',
      'sign_in.succeeded',
    ]);
    const byAction = (action: string) => events.find((event) => event.action === action)!;
    expect(byAction('sign_in.failed')).toMatchObject({
      details: { reason: 'password' },
      ipPrefix: '127.0.0.0/24',
      actorId: null,
    });
    expect(byAction('token.revoked')).toMatchObject({
      targetId: token.token.id,
      details: { name: 'ci', prefix: token.token.prefix },
    });
    expect(byAction('share.revoked').targetId).toBe(doc.shareId);
    expect(byAction('file.deleted')).toMatchObject({ targetId: doc.fileId, details: { name: 'audited.md', sharesRevoked: 0 } });
    const text = JSON.stringify(events);
    for (const secret of [alice.password, 'not the password', token.plaintext, doc.token, webhook.secret])
      expect(text).not.toContain(secret);
  });

  it("pages by cursor, shows nobody else's events, and takes no bearer token", async () => {
    for (let i = 0; i < 3; i++) await unwrap(bob.console.POST('/api/tokens', { body: { name: `t${i}` } }));
    const first = await unwrap(bob.console.GET('/api/audit', { params: { query: { limit: 2 } } }));
    expect(first.events.map((event) => event.details.name)).toEqual(['t2', 't1']);
    const second = await unwrap(bob.console.GET('/api/audit', { params: { query: { limit: 2, cursor: first.nextCursor! } } }));
    expect(second.events.map((event) => event.action)).toEqual(['token.created', 'token.created']);
    expect(second.events[0]!.details.name).toBe('t0');
    const last = await unwrap(bob.console.GET('/api/audit', { params: { query: { limit: 2, cursor: second.nextCursor! } } }));
    expect(last.events.map((event) => event.action)).toEqual(['sign_in.succeeded']);
    expect(last.nextCursor).toBeNull();
    // Alice's events (her token "ci", her webhook) are not on Bob's trail.
    expect([...first.events, ...second.events, ...last.events].every((event) => event.details.name !== 'ci')).toBe(true);

    expect((await bob.console.GET('/api/audit', { params: { query: { limit: 0 } } })).response.status).toBe(400);
    expect((await bob.console.GET('/api/audit', { params: { query: { cursor: '1; drop' } } })).response.status).toBe(400);
    const withToken = await fetch(`${app.baseUrl}/api/audit`, { headers: { authorization: `Bearer ${bob.token}` } });
    // Session routes refuse a bearer token, like every console route.
    expect(withToken.status).toBe(403);
  });
});
