import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, isDocument, share, sql, upload, type UploadedDocument } from '../support/browser.js';
import { drainQueues } from '../support/queues.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

describe('reports and share events', () => {
  let app: RunningApp;
  let alice: TestUser;
  let doc: UploadedDocument;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    app = await startApp();
    alice = await createUser(app.baseUrl);
    doc = await upload(app, alice, 'events.md', '# Events\n\nwatched');
    await unwrap(
      alice.console.POST('/api/webhooks', {
        body: { url: receiver.url('/events'), events: ['share_visited', 'share_reported'] },
      }),
    );
  });
  afterAll(async () => {
    await app?.cleanup();
    await receiver?.close();
  });

  const bodies = (event: string) =>
    receiver
      .at('/events')
      .map(
        (request) =>
          JSON.parse(request.body.toString('utf8')) as { event: string; timestamp: string; data: Record<string, unknown> },
      )
      .filter((body) => body.event === event);

  it('emits share_visited with exactly the contract fields for every render', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const path = new URL(url).pathname;
    const visitor = new HttpVisitor(app.baseUrl);
    await visitor.get(path, { referer: 'https://chat.example/thread/1' });
    await visitor.get(path);
    await receiver.waitFor(2, { path: '/events', timeoutMs: 20_000 });
    const visits = bodies('share_visited').filter((body) => body.data.shareId === created.id);
    expect(visits).toHaveLength(2);
    expect(Object.keys(visits[0]!.data).sort()).toEqual(
      ['shareId', 'token', 'fileId', 'fileName', 'fileKind', 'visitCount', 'uniqueVisitCount', 'ipPrefix', 'referer'].sort(),
    );
    const byCount = visits.sort((a, b) => (a.data.visitCount as number) - (b.data.visitCount as number));
    expect(byCount.map((body) => body.data)).toEqual([
      {
        shareId: created.id,
        token: created.token,
        fileId: doc.fileId,
        fileName: 'events.md',
        fileKind: 'MARKDOWN',
        visitCount: 1,
        uniqueVisitCount: 1,
        ipPrefix: '127.0.0.0/24',
        referer: 'https://chat.example/thread/1',
      },
      expect.objectContaining({ visitCount: 2, uniqueVisitCount: 1, referer: '' }),
    ]);
    expect(visits[0]!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('emits nothing for gate pages: password form, reveal step, refusals', async () => {
    const before = bodies('share_visited').length;
    const locked = await share(alice, doc.fileId, { password: 'sesame-1' });
    const once = await share(alice, doc.fileId, { oneTime: true });
    const revoked = await share(alice, doc.fileId);
    await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: revoked.share.id } } }));
    const visitor = new HttpVisitor(app.baseUrl);
    expect((await visitor.get(new URL(locked.url).pathname)).status).toBe(401);
    expect((await visitor.post(new URL(locked.url).pathname, { action: 'password', password: 'wrong-one' })).status).toBe(401);
    expect((await visitor.get(new URL(once.url).pathname)).status).toBe(200);
    expect((await visitor.get(new URL(revoked.url).pathname)).status).toBe(410);
    // A real visit after the gate pages: its event is queued behind anything they queued.
    const control = await share(alice, doc.fileId);
    expect(isDocument(await visitor.get(new URL(control.url).pathname))).toBe(true);
    await expect.poll(() => bodies('share_visited').length, { timeout: 20_000 }).toBeGreaterThan(before);
    await drainQueues(app);
    expect(
      bodies('share_visited')
        .slice(before)
        .map((body) => body.data.shareId),
    ).toEqual([control.share.id]);
  });

  it('records a report, emits share_reported, and throttles reports per client', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const reportPath = `${new URL(url).pathname}/report`;
    const visitor = new HttpVisitor(app.baseUrl);
    const form = await visitor.get(reportPath);
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="reason"');
    expect(form.headers.get('x-robots-tag')).toContain('noindex');

    expect((await visitor.post(reportPath, { reason: 'x' })).status).toBe(400);
    expect((await visitor.post(reportPath, { reason: 'spam' }, { origin: 'https://evil.example' })).status).toBe(403);
    const accepted = await visitor.post(reportPath, { reason: 'Phishing page\u0000 asking for bank logins' });
    expect(accepted.status).toBe(200);

    const rows = await sql<{ reason: string; ip_prefix: string }>(
      app,
      'SELECT reason, ip_prefix FROM share_reports WHERE share_id = $1',
      [created.id],
    );
    // Control characters are dropped (PostgreSQL text cannot even hold NUL).
    expect(rows).toEqual([{ reason: 'Phishing page asking for bank logins', ip_prefix: '127.0.0.0/24' }]);
    await expect.poll(() => bodies('share_reported').length, { timeout: 20_000 }).toBeGreaterThan(0);
    const [reported] = bodies('share_reported');
    expect(reported!.data).toEqual({
      shareId: created.id,
      token: created.token,
      fileId: doc.fileId,
      reason: 'Phishing page asking for bank logins',
      reportedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    // Ten reports per client and hour, whatever the share.
    for (let i = 1; i < 10; i++) expect((await visitor.post(reportPath, { reason: `report number ${i}` })).status).toBe(200);
    const limited = await visitor.post(reportPath, { reason: 'one too many' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await sql(app, 'SELECT 1 FROM share_reports WHERE share_id = $1', [created.id])).toHaveLength(10);
    // One event per recorded report: none for the refused, the cross-site or the throttled one.
    await drainQueues(app);
    expect(bodies('share_reported').filter((body) => body.data.shareId === created.id)).toHaveLength(10);
  });

  it('answers a report for an unknown link with 404', async () => {
    expect((await new HttpVisitor(app.baseUrl).get(`/s/${alice.segment}/no-such-link/report`)).status).toBe(404);
  });
});

describe('a render origin on another host', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let renderBase: string;

  beforeAll(async () => {
    // One process plays both origins: the console at 127.0.0.1, the render host by its Host header.
    renderBase = 'http://render.sharedown.test:8443';
    app = await startApp({ env: { RENDER_URL: renderBase } });
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  it('shows documents only on the render origin and carries the sign-in over from the console', async () => {
    const doc = await upload(app, alice, 'remote.md', '# Remote render\n\nhere');
    const created = await share(alice, doc.fileId, { requireLogin: true });
    const path = new URL(created.url).pathname;
    expect(created.url.startsWith(app.baseUrl)).toBe(true);

    // Opened on the console's origin, the link moves to the render origin.
    const onConsole = await new HttpVisitor(app.baseUrl).get(path);
    expect(onConsole.status).toBe(302);
    expect(onConsole.location).toBe(`${renderBase}${path}`);

    // The console's cookie does not reach the render host: the page sends the visitor to sign in there.
    const renderVisitor = new HttpVisitor(renderBase, undefined, app.baseUrl);
    const gate = await renderVisitor.get(path);
    expect(gate.status).toBe(401);
    const bounce = /href="([^"]+\/s\/_bounce\?next=[^"]+)"/.exec(gate.body)![1]!.replace(/&amp;/g, '&');
    expect(bounce.startsWith(`${app.baseUrl}/s/_bounce?next=`)).toBe(true);

    // Signed in on the console origin, the bounce comes back with a ticket that signs in the render host.
    const consoleVisitor = new HttpVisitor(app.baseUrl).withCookie(bob.cookie);
    const issued = await consoleVisitor.get(bounce);
    expect(issued.status).toBe(303);
    expect(issued.location!.startsWith(`${renderBase}/s/_bounce/return?ticket=`)).toBe(true);
    const returned = await renderVisitor.get(issued.location!);
    expect(returned.status).toBe(303);
    expect(returned.location).toBe(path);
    expect(renderVisitor.cookies.has('sd_login')).toBe(true);
    expect(renderVisitor.cookies.has('sharedown_session')).toBe(false);
    expect(isDocument(await renderVisitor.get(path))).toBe(true);

    // A forged or stale ticket signs in nobody.
    const forged = await new HttpVisitor(renderBase, undefined, app.baseUrl).get(
      `/s/_bounce/return?ticket=${encodeURIComponent('eyJ1IjoieCJ9.bad')}`,
    );
    expect(forged.status).toBe(400);
  });
});
