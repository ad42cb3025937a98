import { unwrap } from '@sharedown/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, sql, waitForScan } from '../support/browser.js';
import { EICAR } from '../support/clamd.js';
import { drainQueues } from '../support/queues.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

interface RequestBody {
  request: { id: string; state: string; uploadCount: number; folderId: string; url: string; closedAt: string | null };
  url: string;
}

let network = 0;
let currentNetwork = '10.0.0.1';

/**
 * A script's upload (JSON answers): a file, or pasted text under a file name. Each test uploads
 * from a network of its own (the replicas trust the test as their proxy), so the per-network
 * throttle counts one test's uploads only.
 */
async function uploadTo(
  url: string,
  document: { name: string; content: string } | { pasted: string; fileName: string },
  fields: Record<string, string> = { name: 'Ann Uploader' },
  from = currentNetwork,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if ('name' in document) form.append('file', new Blob([document.content], { type: 'text/plain' }), document.name);
  else {
    form.append('fileName', document.fileName);
    form.append('text', document.pasted);
  }
  const response = await fetch(url, {
    method: 'POST',
    body: form,
    headers: { accept: 'application/json', 'x-forwarded-for': from, ...headers },
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Document requests: the owner's REST routes, the public page, slots, review, receipts. */
describe('document requests', () => {
  let first: RunningApp;
  let second: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const SESSION_SECRET = 'document-requests-secret-0123456789abcdef';
    [first, receiver] = await Promise.all([
      startApp({ env: { SESSION_SECRET, TRUST_PROXY: '127.0.0.1' } }),
      new WebhookReceiver().start(),
    ]);
    // A second api replica on the same database: slots hold across both.
    second = await startApp({
      role: 'api',
      env: {
        SESSION_SECRET,
        TRUST_PROXY: '127.0.0.1',
        DATABASE_URL: await first.databaseUrl(),
        ...(first.env.REDIS_URL ? { REDIS_URL: first.env.REDIS_URL } : {}),
      },
    });
    [alice, bob] = [await createUser(first.baseUrl), await createUser(first.baseUrl)];
    await unwrap(
      alice.console.POST('/api/webhooks', { body: { url: receiver.url('/requests'), events: ['request_upload_received'] } }),
    );
  });
  beforeEach(() => {
    currentNetwork = `10.0.${++network}.1`;
  });
  afterAll(async () => {
    await second?.cleanup();
    await first?.cleanup();
    await receiver?.close();
  });

  async function create(body: Record<string, unknown>): Promise<RequestBody> {
    const response = await fetch(`${first.baseUrl}/api/v1/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as RequestBody;
  }

  const api = (user: TestUser, method: string, path: string, body?: unknown) =>
    fetch(`${first.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${user.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it('creates a request into a new folder under Requests, shows its page, and GET and HEAD change nothing', async () => {
    const created = await create({ title: 'Signed policies', instructions: 'Please send **both** policies.', maxUploads: 3 });
    expect(created.request).toMatchObject({ state: 'OPEN', uploadCount: 0, closedAt: null });
    expect(created.url).toMatch(new RegExp(`^${first.baseUrl}/r/${alice.segment}/[A-Za-z0-9_-]{24}$`));
    const [folder] = await sql<{ name: string; parent: string }>(
      first,
      'SELECT f.name, p.name AS parent FROM folders f JOIN folders p ON p.id = f.parent_id WHERE f.id = $1',
      [created.request.folderId],
    );
    expect(folder).toEqual({ name: 'Signed policies', parent: 'Requests' });

    const page = await new HttpVisitor(first.baseUrl, CHROME).get(new URL(created.url).pathname);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Signed policies');
    expect(page.body).toContain('<strong>both</strong>');
    expect(page.body).toContain('enctype="multipart/form-data"');
    expect((await fetch(created.url, { method: 'HEAD' })).status).toBe(200);
    // A link preview sees a card that names nothing of the request.
    const preview = await fetch(created.url, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } });
    expect(await preview.text()).not.toContain('Signed policies');
    const again = await unwrap(alice.api.GET('/api/v1/requests/{id}', { params: { path: { id: created.request.id } } }));
    expect(again.request).toMatchObject({ state: 'OPEN', uploadCount: 0 });
  });

  it('30 parallel uploads over two replicas at maxUploads 5: exactly 5 accepted, 25 CONFLICT, nothing of theirs kept', async () => {
    const created = await create({ title: 'Race', maxUploads: 5 });
    const path = new URL(created.url).pathname;
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        uploadTo(`${[first, second][i % 2]!.baseUrl}${path}`, { name: `doc-${i}.md`, content: `# Doc ${i}\n` }),
      ),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(5);
    const refused = results.filter((result) => result.status !== 200);
    expect(refused.map((result) => [result.status, result.body.code])).toEqual(Array(25).fill([409, 'CONFLICT']));
    const [{ n }] = await sql<{ n: number }>(first, 'SELECT count(*)::int AS n FROM files WHERE folder_id = $1', [
      created.request.folderId,
    ]);
    expect(n).toBe(5);
    const request = await unwrap(alice.api.GET('/api/v1/requests/{id}', { params: { path: { id: created.request.id } } }));
    expect(request.request).toMatchObject({ uploadCount: 5, state: 'FULL' });
    expect((await uploadTo(`${first.baseUrl}${path}`, { name: 'late.md', content: 'late' })).status).toBe(409);
  });

  it('refuses what a token upload refuses, keeping no file, version or slot', async () => {
    const created = await create({ title: 'Rules', maxUploads: 2, maxBytes: 100 });
    const url = created.url;
    const refusals = [
      [await uploadTo(url, { name: 'image.png', content: 'x' }), 400],
      [await uploadTo(url, { name: 'big.md', content: 'x'.repeat(101) }), 413],
      [await uploadTo(url, { name: 'ok.md', content: 'fine' }, {}), 400],
      [await uploadTo(url, { name: 'ok.md', content: 'fine' }, { name: 'Ann', email: 'not an address' }), 400],
    ] as const;
    for (const [result, status] of refusals) expect(result.status, JSON.stringify(result.body)).toBe(status);
    // The owner's quota: nothing kept, the slot given back.
    await sql(first, 'UPDATE users SET quota_bytes = used_bytes + 2 WHERE id = $1', [alice.userId]);
    const overQuota = await uploadTo(url, { name: 'quota.md', content: 'more than two bytes' });
    await sql(first, 'UPDATE users SET quota_bytes = 104857600 WHERE id = $1', [alice.userId]);
    expect([overQuota.status, overQuota.body.code]).toEqual([413, 'OVER_QUOTA']);
    const [{ files, versions }] = await sql<{ files: number; versions: number }>(
      first,
      `SELECT count(DISTINCT f.id)::int AS files, count(v.id)::int AS versions
         FROM files f LEFT JOIN file_versions v ON v.file_id = f.id WHERE f.folder_id = $1`,
      [created.request.folderId],
    );
    expect({ files, versions }).toEqual({ files: 0, versions: 0 });
    const request = await unwrap(alice.api.GET('/api/v1/requests/{id}', { params: { path: { id: created.request.id } } }));
    expect(request.request.uploadCount).toBe(0);
    // Pasted text under a file name is an upload too.
    expect((await uploadTo(url, { pasted: '# Pasted\n', fileName: 'pasted.md' })).status).toBe(200);
  });

  it('throttles uploads per client network (an IPv6 client as its /64): the refused keep nothing', async () => {
    const created = await create({ title: 'Flood', maxUploads: 1000 });
    const attempts = 121;
    const results = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        uploadTo(created.url, { name: `f-${i}.md`, content: 'x' }, undefined, `2001:db8:1:2::${(i % 200).toString(16)}`),
      ),
    );
    const throttled = results.filter((result) => result.status === 429);
    expect(results.filter((result) => result.status === 200)).toHaveLength(attempts - throttled.length);
    expect(throttled.length).toBeGreaterThanOrEqual(1);
    expect(throttled[0]!.body.code).toBe('RATE_LIMITED');
    const [{ n }] = await sql<{ n: number }>(first, 'SELECT count(*)::int AS n FROM files WHERE folder_id = $1', [
      created.request.folderId,
    ]);
    const request = await unwrap(alice.api.GET('/api/v1/requests/{id}', { params: { path: { id: created.request.id } } }));
    expect(n).toBe(attempts - throttled.length);
    expect(request.request.uploadCount).toBe(attempts - throttled.length);
    // Another network is not held back.
    expect((await uploadTo(created.url, { name: 'other.md', content: 'x' })).status).toBe(200);
  });

  it('an upload waits for review: not shareable until accepted; rejected goes to the trash; the receipt shows only it', async () => {
    const created = await create({ title: 'Review' });
    const accepted = await uploadTo(
      created.url,
      { name: 'keep.md', content: '# Keep\n' },
      { name: 'Kim', message: 'here it is' },
    );
    const rejected = await uploadTo(created.url, { name: 'drop.md', content: '# Drop\n' }, { name: 'Dan' });
    expect(accepted.status).toBe(200);
    const { uploads } = await unwrap(
      alice.api.GET('/api/v1/requests/{id}/uploads', { params: { path: { id: created.request.id } } }),
    );
    expect(uploads.map((upload) => [upload.fileName, upload.uploaderName, upload.review])).toEqual([
      ['drop.md', 'Dan', 'PENDING'],
      ['keep.md', 'Kim', 'PENDING'],
    ]);
    const keep = uploads[1]!;
    await waitForScan(alice, keep.fileId!, 'CLEAN');
    const early = await api(alice, 'POST', '/shares', { fileId: keep.fileId });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { code: string }).code).toBe('CONFLICT');

    const acceptedNow = await api(alice, 'POST', `/requests/${created.request.id}/uploads/${keep.id}/accept`);
    expect(((await acceptedNow.json()) as { upload: { review: string } }).upload.review).toBe('ACCEPTED');
    expect((await api(alice, 'POST', '/shares', { fileId: keep.fileId })).status).toBe(200);
    const drop = uploads[0]!;
    expect((await api(alice, 'POST', `/requests/${created.request.id}/uploads/${drop.id}/reject`)).status).toBe(200);
    const [trashed] = await sql<{ deleted: boolean }>(
      first,
      'SELECT deleted_at IS NOT NULL AS deleted FROM files WHERE id = $1',
      [drop.fileId],
    );
    expect(trashed!.deleted).toBe(true);
    expect((await api(alice, 'POST', `/requests/${created.request.id}/uploads/${drop.id}/accept`)).status).toBe(409);

    const receipt = await new HttpVisitor(first.baseUrl, CHROME).get(new URL(String(accepted.body.receiptUrl)).pathname);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toContain('keep.md');
    expect(receipt.body).not.toContain('drop.md');
    expect(String(rejected.body.receiptUrl)).not.toBe(String(accepted.body.receiptUrl));
    const forged = `${new URL(String(accepted.body.receiptUrl)).pathname.slice(0, -4)}AAAA`;
    expect((await new HttpVisitor(first.baseUrl, CHROME).get(forged)).status).toBe(404);
  });

  it('EICAR is quarantined, never shareable, gives its slot back, and the event and notification say so once', async () => {
    const created = await create({ title: 'Scanned', maxUploads: 1 });
    const infected = await uploadTo(created.url, { name: 'eicar.txt', content: EICAR });
    expect(infected.status).toBe(200);
    const { uploads } = await unwrap(
      alice.api.GET('/api/v1/requests/{id}/uploads', { params: { path: { id: created.request.id } } }),
    );
    await waitForScan(alice, uploads[0]!.fileId!, 'INFECTED');
    type Delivery = { event: string; data: Record<string, unknown> };
    const ofThisUpload = () =>
      receiver
        .at('/requests')
        .map((request) => JSON.parse(request.body.toString('utf8')) as Delivery)
        .filter((delivery) => delivery.data.uploadId === uploads[0]!.id);
    await receiver.waitFor(1, { path: '/requests' });
    await drainQueues(first);
    expect(ofThisUpload()).toHaveLength(1);
    expect(ofThisUpload()[0]).toMatchObject({
      event: 'request_upload_received',
      data: { requestId: created.request.id, uploadId: uploads[0]!.id, fileName: 'eicar.txt', scanStatus: 'INFECTED' },
    });
    const request = await unwrap(alice.api.GET('/api/v1/requests/{id}', { params: { path: { id: created.request.id } } }));
    expect(request.request).toMatchObject({ uploadCount: 0, state: 'OPEN' });
    expect((await api(alice, 'POST', '/shares', { fileId: uploads[0]!.fileId })).status).toBe(409);
    const receipt = await new HttpVisitor(first.baseUrl, CHROME).get(new URL(String(infected.body.receiptUrl)).pathname);
    expect(receipt.body).toMatch(/virus|杀毒/);
    const notifications = (await (
      await fetch(`${first.baseUrl}/api/notifications`, { headers: { cookie: alice.cookie } })
    ).json()) as { notifications: Array<{ kind: string; data: { uploadId?: string } }> };
    expect(
      notifications.notifications.filter((n) => n.kind === 'request_upload' && n.data.uploadId === uploads[0]!.id),
    ).toHaveLength(1);
  });

  it('closing answers 410 on the page and to uploads; the uploads stay; a password asks first', async () => {
    const created = await create({ title: 'Closing', password: 'open sesame' });
    const path = new URL(created.url).pathname;
    const visitor = new HttpVisitor(first.baseUrl, CHROME);
    const asked = await visitor.get(path);
    expect(asked.status).toBe(401);
    expect(asked.body).toContain('name="password"');
    expect((await visitor.post(path, { action: 'password', password: 'wrong' })).status).toBe(401);
    expect((await visitor.post(path, { action: 'password', password: 'open sesame' })).status).toBe(303);
    expect((await visitor.get(path)).status).toBe(200);
    // Without the unlock, a script's upload meets the password first.
    expect((await uploadTo(created.url, { name: 'a.md', content: 'a' })).status).toBe(401);

    const closed = await api(alice, 'DELETE', `/requests/${created.request.id}`);
    expect(((await closed.json()) as RequestBody).request).toMatchObject({ state: 'CLOSED', closedAt: expect.any(String) });
    expect((await visitor.get(path)).status).toBe(410);
    expect((await uploadTo(created.url, { name: 'b.md', content: 'b' })).status).toBe(410);
    const listed = await unwrap(alice.api.GET('/api/v1/requests', { params: { query: { state: 'CLOSED' } } }));
    expect(listed.requests.map((request) => request.id)).toContain(created.request.id);
  });

  it('an allowlist admits signed-in, proven, listed addresses only, and the upload carries that address', async () => {
    const listed = await createUser(first.baseUrl, { email: `listed${Date.now()}@example.com` });
    const other = await createUser(first.baseUrl);
    const created = await create({ title: 'Listed only', emailAllowlist: [listed.email.toUpperCase()] });
    expect(created.request.emailAllowlist).toEqual([listed.email]);
    const path = new URL(created.url).pathname;
    expect((await new HttpVisitor(first.baseUrl, CHROME).get(path)).status).toBe(401);
    const asListed = new HttpVisitor(first.baseUrl, CHROME).withCookie(listed.cookie);
    // Anyone can register any address: an unproven one is not admitted.
    expect((await asListed.get(path)).status).toBe(403);
    await sql(first, 'UPDATE users SET email_verified_at = now() WHERE id = ANY($1::uuid[])', [[listed.userId, other.userId]]);
    const page = await asListed.get(path);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`value="${listed.email}" readonly`);
    expect((await new HttpVisitor(first.baseUrl, CHROME).withCookie(other.cookie).get(path)).status).toBe(403);

    const anonymous = await uploadTo(created.url, { name: 'anon.md', content: 'x' });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    const uploaded = await uploadTo(created.url, { name: 'listed.md', content: 'x' }, undefined, currentNetwork, {
      cookie: listed.cookie,
      origin: first.baseUrl,
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const { uploads } = await unwrap(
      alice.api.GET('/api/v1/requests/{id}/uploads', { params: { path: { id: created.request.id } } }),
    );
    expect(uploads.map((upload) => upload.uploaderEmail)).toEqual([listed.email]);
  });

  it("another account's request is 404 on every route; the console reaches the same handlers with its session only", async () => {
    const created = await create({ title: 'Private' });
    const id = created.request.id;
    for (const [method, path] of [
      ['GET', `/requests/${id}`],
      ['PATCH', `/requests/${id}`],
      ['DELETE', `/requests/${id}`],
      ['GET', `/requests/${id}/uploads`],
      ['POST', `/requests/${id}/uploads/${id}/accept`],
    ] as const) {
      const answer = await api(bob, method, path, method === 'PATCH' ? { title: 'Mine now' } : undefined);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    const viaConsole = await fetch(`${first.baseUrl}/api/console/requests/${id}`, { headers: { cookie: alice.cookie } });
    expect(((await viaConsole.json()) as RequestBody).request.id).toBe(id);
    expect((await fetch(`${first.baseUrl}/v1/requests/${id}`, { headers: { cookie: alice.cookie } })).status).toBe(401);
    const tokenOnConsole = await fetch(`${first.baseUrl}/api/console/requests/${id}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(tokenOnConsole.status).toBe(403);
  });
});
