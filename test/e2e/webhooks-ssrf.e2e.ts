import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { WebhookReceiver, shareMarkdown } from '../support/webhook-receiver.js';

describe('webhook targets with WEBHOOK_ALLOW_PRIVATE_TARGETS unset', () => {
  let app: RunningApp;
  let alice: TestUser;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    app = await startApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    alice = await createUser(app.baseUrl);
  });
  afterAll(async () => {
    await app?.cleanup();
    await receiver?.close();
  });

  async function create(url: string) {
    return fetch(`${app.baseUrl}/api/webhooks`, {
      method: 'POST',
      headers: { cookie: alice.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['share_visited'] }),
    });
  }

  it.each([
    ['the loopback receiver', () => receiver.url('/hook')],
    ['localhost by name', () => `http://localhost:${receiver.port}/hook`],
    ['IPv6 loopback', () => `http://[::1]:${receiver.port}/hook`],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${receiver.port}/hook`],
    ['hex-encoded loopback', () => 'http://0x7f.1/hook'],
    ['integer-encoded loopback', () => 'http://2130706433/hook'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv4-mapped metadata address', () => 'http://[::ffff:169.254.169.254]/'],
    ['a link-local address', () => 'http://169.254.10.20/'],
    ['IPv6 link-local', () => 'http://[fe80::1]/'],
    ['private 10/8', () => 'https://10.0.0.5/hook'],
    ['private 172.16/12', () => 'https://172.20.1.1/hook'],
    ['private 192.168/16', () => 'https://192.168.1.1/hook'],
    ['carrier-grade NAT', () => 'http://100.64.0.1/hook'],
    ['IPv6 unique-local', () => 'http://[fd00:ec2::254]/'],
    ['the unspecified address', () => 'http://0.0.0.0/hook'],
  ])('refuses %s with 400 VALIDATION', async (_name, url) => {
    const response = await create(url());
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toEqual({ error: expect.stringContaining('url'), code: 'VALIDATION', field: 'url' });
    expect((await unwrap(alice.console.GET('/api/webhooks'))).webhooks).toEqual([]);
  });

  it('accepts a public address', async () => {
    const response = await create('https://93.184.215.14/hook');
    expect(response.status).toBe(200);
    const { webhook } = await response.json();
    await unwrap(alice.console.DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.id } } }));
  });

  it('checks the address again at delivery time: a target that turned private gets nothing', async () => {
    const doc = await shareMarkdown(app.baseUrl, alice, 'ssrf.md');
    const targets = [
      receiver.url('/literal'),
      `http://localhost:${receiver.port}/by-name`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/mapped`,
    ];
    const db = new pg.Client({ connectionString: await app.databaseUrl() });
    await db.connect();
    const ids: string[] = [];
    try {
      for (const target of targets) {
        const { webhook } = await unwrap(
          alice.console.POST('/api/webhooks', { body: { url: 'https://93.184.215.14/hook', events: ['share_visited'] } }),
        );
        // Stands in for a DNS answer that changed after the webhook was accepted.
        await db.query('UPDATE webhooks SET url = $2 WHERE id = $1', [webhook.id, target]);
        ids.push(webhook.id);
      }
    } finally {
      await db.end();
    }

    const view = await fetch(doc.url, { redirect: 'manual' });
    await view.arrayBuffer();
    expect(view.status).toBe(200);

    for (const id of ids) {
      const deadline = Date.now() + 15_000;
      let records = (await unwrap(alice.console.GET('/api/webhooks/{id}/deliveries', { params: { path: { id } } }))).deliveries;
      while (records.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        records = (await unwrap(alice.console.GET('/api/webhooks/{id}/deliveries', { params: { path: { id } } }))).deliveries;
      }
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: 'error', responseCode: null, attempts: 1, event: 'share_visited' });
      expect(records[0]!.responseBody).toContain('已拒绝');
    }
    expect(receiver.requests).toHaveLength(0);
  });
});
