import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

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
    expect(body).toEqual({ error: expect.stringContaining('url'), code: 'VALIDATION' });
    expect((await unwrap(alice.console.GET('/api/webhooks'))).webhooks).toEqual([]);
  });

  it('accepts a public address', async () => {
    const response = await create('https://93.184.215.14/hook');
    expect(response.status).toBe(200);
    const { webhook } = await response.json();
    await unwrap(alice.console.DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.id } } }));
  });
});
