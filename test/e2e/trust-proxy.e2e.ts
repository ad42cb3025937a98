import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { getShare, share, upload, type UploadedDocument } from '../support/browser.js';

const CONTENT = '# Behind the proxy\n\nSeen through a reverse proxy.\n';
const PUBLIC_URL = 'https://share.example.test';
const RENDER_URL = 'https://view.example.test';

function tally(statuses: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** A visit as the reverse proxy forwards it: the client's address in X-Forwarded-For. */
async function visit(url: string, client: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', headers: { 'user-agent': 'SameBrowser/1.0', 'x-forwarded-for': client, ...headers } });
}

async function login(app: RunningApp, email: string, password: string, client: string): Promise<Response> {
  return fetch(`${app.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ email, password }),
  });
}

async function tryPassword(url: string, password: string, client: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
    body: new URLSearchParams({ action: 'password', password }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('behind a trusted reverse proxy (TRUST_PROXY=127.0.0.1)', () => {
  let app: RunningApp;
  let alice: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    app = await startApp({ env: { TRUST_PROXY: '127.0.0.1', PUBLIC_URL, RENDER_URL } });
    alice = await createUser(app.baseUrl);
    doc = await upload(app, alice, 'proxied.md', CONTENT);
  });
  afterAll(async () => app?.cleanup());

  const direct = (url: string) => `${app.baseUrl}${new URL(url).pathname}`;

  it('tells visitors apart by the forwarded address: one browser on two networks is two visitors', async () => {
    const created = await share(alice, doc.fileId, { perVisitorMaxVisits: 1 });
    const url = direct(created.url);
    expect((await visit(url, '198.51.100.7')).status).toBe(200);
    expect((await visit(url, '203.0.113.9')).status).toBe(200);
    expect((await visit(url, '198.51.100.7')).status).toBe(410);
    expect(await getShare(alice, created.share.id)).toMatchObject({ visitCount: 2, uniqueVisitCount: 2 });
  });

  it('evaluates exactly ten of forty parallel wrong passwords from one client, and the owner signs in from elsewhere', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async () => (await login(app, alice.email, 'wrong password!', '198.51.100.20')).status),
    );
    expect(tally(statuses)).toEqual({ 401: 10, 429: 30 });
    const refused = await login(app, alice.email, alice.password, '198.51.100.20');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: expect.any(String), code: 'RATE_LIMITED' });
    expect((await login(app, alice.email, alice.password, '198.51.100.21')).status).toBe(200);
  });

  it('does not count successful sign-ins as failures', async () => {
    const bob = await createUser(app.baseUrl);
    for (let i = 0; i < 12; i++) expect((await login(app, bob.email, bob.password, '198.51.100.40')).status).toBe(200);
  });

  it('stops one client after thirty failures across accounts, without touching other clients', async () => {
    const statuses = await Promise.all(
      Array.from(
        { length: 30 },
        async (_, i) => (await login(app, `nobody${i}@example.com`, 'wrong password!', '198.51.100.30')).status,
      ),
    );
    expect(tally(statuses)).toEqual({ 401: 30 });
    expect((await login(app, 'someone@example.com', 'wrong password!', '198.51.100.30')).status).toBe(429);
    expect((await login(app, 'someone@example.com', 'wrong password!', '198.51.100.31')).status).toBe(401);
  });

  it('throttles share passwords per client, not for everyone behind the proxy', async () => {
    const created = await share(alice, doc.fileId, { password: 'open sesame' });
    const url = direct(created.url);
    for (let i = 0; i < 10; i++) expect(await tryPassword(url, 'wrong', '198.51.100.50')).toBe(401);
    expect(await tryPassword(url, 'wrong', '198.51.100.50')).toBe(429);
    expect(await tryPassword(url, 'wrong', '198.51.100.51')).toBe(401);
    expect(await tryPassword(url, 'open sesame', '198.51.100.51')).toBe(303);
  });

  it('reads the scheme and host the proxy forwards: a view addressed to PUBLIC_URL moves to RENDER_URL', async () => {
    const created = await share(alice, doc.fileId);
    const path = new URL(created.url).pathname;
    const response = await fetch(`${app.baseUrl}${path}`, {
      redirect: 'manual',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'share.example.test', 'x-forwarded-for': '198.51.100.60' },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${RENDER_URL}${path}`);
    expect(await getShare(alice, created.share.id)).toMatchObject({ visitCount: 0 });
  });
});

describe('without TRUST_PROXY, forwarded headers from a direct client are ignored', () => {
  let app: RunningApp;
  let alice: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    app = await startApp({ env: { PUBLIC_URL, RENDER_URL } });
    alice = await createUser(app.baseUrl);
    doc = await upload(app, alice, 'direct.md', CONTENT);
  });
  afterAll(async () => app?.cleanup());

  it('a forged X-Forwarded-For does not make a second visitor', async () => {
    const created = await share(alice, doc.fileId, { perVisitorMaxVisits: 1 });
    const url = `${app.baseUrl}${new URL(created.url).pathname}`;
    expect((await visit(url, '198.51.100.7')).status).toBe(200);
    expect((await visit(url, '203.0.113.9')).status).toBe(410);
    expect(await getShare(alice, created.share.id)).toMatchObject({ visitCount: 1, uniqueVisitCount: 1 });
  });

  it('a forged X-Forwarded-For does not buy fresh sign-in attempts', async () => {
    for (let i = 0; i < 10; i++) expect((await login(app, alice.email, 'wrong password!', `198.51.100.${i}`)).status).toBe(401);
    expect((await login(app, alice.email, alice.password, '198.51.100.99')).status).toBe(429);
  });

  it('forged X-Forwarded-Proto and -Host do not change where the service thinks it is', async () => {
    const created = await share(alice, doc.fileId);
    const path = new URL(created.url).pathname;
    const response = await fetch(`${app.baseUrl}${path}`, {
      redirect: 'manual',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'share.example.test' },
    });
    expect(response.status).toBe(200);
  });
});
