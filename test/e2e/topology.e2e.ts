import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap } from '@sharedown/contract';
import { backend, createUser, sessionCookieOf, type TestUser } from '../support/app.js';
import { HttpVisitor, getShare, isDocument, share } from '../support/browser.js';
import { CLIENT_IP_HEADER, FORWARDED_PROTO_HEADER, startReverseProxy } from '../support/reverse-proxy.js';
import { startTopology, type Topology } from '../support/topology.js';
import { uploadFile, waitForScan } from '../support/uploads.js';
import { WebhookReceiver, shareMarkdown, type ReceivedRequest, type SharedDocument } from '../support/webhook-receiver.js';

const MARKER = 'Served by whichever replica the proxy picked.';
const CONTENT = `# Topology\n\n${MARKER}\n`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  status: number;
  rendered: boolean;
  retryAfter: string | null;
}

function tally(outcomes: { status: number }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of outcomes) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

async function visit(url: string, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<Outcome> {
  const response = await fetch(url, { redirect: 'manual', ...init, headers });
  const body = await response.text();
  return { status: response.status, rendered: body.includes(MARKER), retryAfter: response.headers.get('retry-after') };
}

function eventOf(request: ReceivedRequest): { event: string; data: { visitCount: number; ipPrefix: string; shareId: string } } {
  return JSON.parse(request.body.toString('utf8'));
}

// The production topology needs the machine's PostgreSQL and Redis: the services run of the suite.
describe.skipIf(backend !== 'services')('production topology: a reverse proxy, two api replicas and a worker', () => {
  let topology: Topology;
  let receiver: WebhookReceiver;
  let alice: TestUser;
  let doc: SharedDocument;
  const started = Date.now();

  beforeAll(async () => {
    [topology, receiver] = await Promise.all([startTopology(), new WebhookReceiver().start()]);
    console.log(`topology up in ${Date.now() - started} ms`);
    alice = await createUser(topology.url);
    doc = await shareMarkdown(topology.url, alice, 'topology.md', CONTENT);
  });
  afterAll(async () => {
    await topology?.close();
    await receiver?.close();
    console.log(`topology file done in ${Date.now() - started} ms`);
  });

  const pin = (replica: number) => topology.proxy.pin(replica);
  /** The same URL (a share link is on RENDER_URL), sent straight to one replica instead of through the proxy. */
  const direct = (url: string, replica: number) => `${topology.replicas[replica]!.baseUrl}${new URL(url).pathname}`;
  const consoleOn = (user: TestUser, replica: number) =>
    createSharedownClient({ baseUrl: topology.url, headers: { cookie: user.cookie, ...pin(replica) } });
  /** A share link is PUBLIC_URL/s/…, which the viewer sends on to RENDER_URL: tests go there at once. */
  const onRender = (url: string) => `${topology.renderUrl}${new URL(url).pathname}`;
  const newShare = async (input: Parameters<typeof share>[2] = {}) => {
    const created = await share(alice, doc.fileId, input);
    return { share: created.share, url: onRender(created.url) };
  };

  it('the test proxy forwards like a reverse proxy: streamed bodies, X-Forwarded-*, test headers stripped', async () => {
    const echo = await new WebhookReceiver((request) => ({ status: 201, body: `got ${request.body.length} bytes` })).start();
    const proxy = await startReverseProxy({ backends: [{ host: '127.0.0.1', port: echo.port }] });
    try {
      const body = Buffer.alloc(256 * 1024, 'a');
      const response = await fetch(`${proxy.url}/echo?x=1`, {
        method: 'POST',
        body,
        headers: { [CLIENT_IP_HEADER]: '198.51.100.7', [FORWARDED_PROTO_HEADER]: 'https', 'x-forwarded-for': '192.0.2.1' },
      });
      expect(response.status).toBe(201);
      expect(await response.text()).toBe(`got ${body.length} bytes`);
      const [seen] = echo.requests;
      expect(seen!.path).toBe('/echo?x=1');
      expect(seen!.body.equals(body)).toBe(true);
      expect(seen!.headers).toMatchObject({
        'x-forwarded-for': '192.0.2.1, 198.51.100.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': `127.0.0.1:${proxy.port}`,
      });
      expect(Object.keys(seen!.headers).filter((name) => name.startsWith('x-test-'))).toEqual([]);
    } finally {
      await proxy.close();
      await echo.close();
    }
  });

  it('keeps a maxVisits cap exact across replicas: 120 parallel visits to a cap of 25', async () => {
    const { share: created, url } = await newShare({ maxVisits: 25 });
    const before = [...topology.proxy.stats.perBackend];
    const outcomes = await Promise.all(Array.from({ length: 120 }, (_, i) => visit(url, { 'user-agent': `TopologyCap/${i}` })));
    expect(tally(outcomes)).toEqual({ 200: 25, 410: 95 });
    expect(outcomes.filter((o) => o.rendered)).toHaveLength(25);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 25, consumedAt: expect.any(String) });
    // Both replicas answered a share of the burst.
    topology.proxy.stats.perBackend.forEach((count, i) => expect(count - before[i]!).toBeGreaterThanOrEqual(50));
  });

  it('keeps a token rate limit exact across replicas: 20 parallel calls on a 5/min token', async () => {
    const { plaintext } = await unwrap(
      alice.console.POST('/api/tokens', { body: { name: 'five-per-minute', rateLimitPerMinute: 5 } }),
    );
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => visit(`${topology.url}/api/v1/me`, { authorization: `Bearer ${plaintext}` })),
    );
    expect(tally(outcomes)).toEqual({ 200: 5, 429: 15 });
    for (const limited of outcomes.filter((o) => o.status === 429)) expect(Number(limited.retryAfter)).toBeGreaterThan(0);
  });

  describe('webhooks', () => {
    let shared: { url: string; id: string };

    beforeAll(async () => {
      const created = await newShare();
      shared = { url: created.url, id: created.share.id };
    });

    /** One view on each replica, so both have the owner's webhook subscriptions cached just now. */
    async function warmBothReplicas(): Promise<void> {
      for (const replica of [0, 1])
        expect((await visit(shared.url, { 'user-agent': `Warm/${replica}`, ...pin(replica) })).status).toBe(200);
    }

    async function settledDeliveries(webhookId: string, count: number) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { deliveries } = await unwrap(
          alice.console.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: webhookId } } }),
        );
        if (deliveries.length >= count || Date.now() > deadline) return deliveries;
        await sleep(200);
      }
    }

    it('delivers exactly one share_visited per visit whichever replica served it; a deleted webhook gets none', async () => {
      await warmBothReplicas();
      const { webhook } = await unwrap(
        consoleOn(alice, 0).POST('/api/webhooks', { body: { url: receiver.url('/spread'), events: ['share_visited'] } }),
      );
      await sleep(1000);

      const outcomes = await Promise.all(
        Array.from({ length: 30 }, (_, i) => visit(shared.url, { 'user-agent': `Hooked/${i}`, ...pin(i % 2) })),
      );
      expect(tally(outcomes)).toEqual({ 200: 30 });
      const deliveries = await settledDeliveries(webhook.id, 30);
      // Nothing more comes after the count is reached.
      await sleep(1000);
      const received = receiver.at('/spread');
      const visitCounts = received.map((request) => eventOf(request).data.visitCount);
      console.log(
        `webhook spread: ${deliveries.length} deliveries listed, ${received.length} received for 30 visits (15 on each replica)`,
      );
      expect(deliveries).toHaveLength(30);
      expect(deliveries.every((d) => d.event === 'share_visited' && d.status === 'success')).toBe(true);
      expect(new Set(deliveries.map((d) => d.eventId)).size).toBe(30);
      expect(received).toHaveLength(30);
      expect(new Set(visitCounts).size).toBe(30);
      const { visitCount } = await getShare(alice, shared.id);
      expect(visitCounts.every((n) => n > visitCount - 30 && n <= visitCount)).toBe(true);

      // Deleted through replica B while both replicas have it cached: after 1 s neither delivers.
      await warmBothReplicas();
      await receiver.waitFor(32, { path: '/spread' });
      await unwrap(consoleOn(alice, 1).DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.id } } }));
      await sleep(1000);
      const after = await Promise.all(
        Array.from({ length: 20 }, (_, i) => visit(shared.url, { 'user-agent': `Unhooked/${i}`, ...pin(i % 2) })),
      );
      expect(tally(after)).toEqual({ 200: 20 });
      await sleep(2000);
      expect(receiver.at('/spread')).toHaveLength(32);
    });

    it("shows the forwarded client's /24 in ipPrefix, and the peer's when the client forged X-Forwarded-For", async () => {
      const { share: created, url } = await newShare();
      const { webhook } = await unwrap(
        consoleOn(alice, 0).POST('/api/webhooks', { body: { url: receiver.url('/prefix'), events: ['share_visited'] } }),
      );
      // Pinned to the replica that created the webhook: this test is about addresses, not caches.
      const visits: { to: string; headers: Record<string, string> }[] = [
        // through the proxy, as the client at 203.0.113.77
        { to: url, headers: { [CLIENT_IP_HEADER]: '203.0.113.77', ...pin(0) } },
        // through the proxy, with a client-forged header: the proxy appends the real peer
        { to: url, headers: { 'x-forwarded-for': '192.0.2.66', ...pin(0) } },
        // directly at the replica with a forged header
        { to: direct(url, 0), headers: { 'x-forwarded-for': '192.0.2.66' } },
      ];
      for (const [i, { to, headers }] of visits.entries()) {
        expect((await visit(to, { 'user-agent': `Prefix/${i}`, ...headers })).status).toBe(200);
        await receiver.waitFor(i + 1, { path: '/prefix' });
      }
      const byVisit = new Map(receiver.at('/prefix').map((request) => [eventOf(request).data.visitCount, eventOf(request).data]));
      expect([1, 2, 3].map((n) => byVisit.get(n)?.shareId)).toEqual([created.id, created.id, created.id]);
      expect([1, 2, 3].map((n) => byVisit.get(n)?.ipPrefix)).toEqual(['203.0.113.0/24', '127.0.0.0/24', '127.0.0.0/24']);
      await unwrap(alice.console.DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.id } } }));
    });
  });

  it('keeps a console session made on one replica working on the other, and its sign-out too', async () => {
    const email = `topology${Date.now()}@example.com`;
    const registered = await fetch(`${topology.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...pin(0) },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    expect(registered.status).toBe(200);
    const cookie = sessionCookieOf(registered);
    const onA = createSharedownClient({ baseUrl: topology.url, headers: { cookie, ...pin(0) } });
    const onB = createSharedownClient({ baseUrl: topology.url, headers: { cookie, ...pin(1) } });
    expect((await unwrap(onB.GET('/api/auth/session'))).user.email).toBe(email);
    // A cookie-authenticated write on the other replica, from the configured origin.
    const token = await onB.POST('/api/tokens', { body: { name: 'made-on-b' }, headers: { origin: topology.url } });
    expect(token.response.status).toBe(200);
    expect((await onA.POST('/api/auth/logout', { headers: { origin: topology.url } })).response.ok).toBe(true);
    expect((await onB.GET('/api/auth/session')).response.status).toBe(401);
  });

  it('opens a password share on one replica after it was unlocked on the other', async () => {
    const { share: created, url } = await newShare({ password: 'across-replicas' });
    const path = new URL(url).pathname;
    const browser = new HttpVisitor(topology.renderUrl);
    expect((await browser.get(path, pin(1))).status).toBe(401);
    const unlocked = await browser.post(path, { action: 'password', password: 'across-replicas' }, pin(0));
    expect(unlocked.status).toBe(303);
    expect([...browser.cookies.keys()].some((name) => name.startsWith('sd_access_'))).toBe(true);
    const opened = await browser.get(path, pin(1));
    expect(isDocument(opened)).toBe(true);
    expect(opened.body).toContain(MARKER);
    // A visitor without that cookie still meets the form on either replica.
    expect((await new HttpVisitor(topology.renderUrl).get(path, pin(0))).status).toBe(401);
    expect((await getShare(alice, created.id)).visitCount).toBe(1);
  });

  describe('client addresses come only from the trusted proxy', () => {
    const agent = 'SameBrowser/1.0';

    // Without a cookie a visitor is the masked address (/24) plus the user agent: the addresses differ in their /24.
    it('through the proxy, two forwarded addresses with one user agent are two visitors', async () => {
      const { share: created, url } = await newShare({ perVisitorMaxVisits: 1 });
      const first = await visit(url, { 'user-agent': agent, [CLIENT_IP_HEADER]: '198.51.100.1' });
      const second = await visit(url, { 'user-agent': agent, [CLIENT_IP_HEADER]: '203.0.113.1' });
      const again = await visit(url, { 'user-agent': agent, [CLIENT_IP_HEADER]: '198.51.100.1' });
      expect([first.status, second.status, again.status]).toEqual([200, 200, 410]);
      expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 2, uniqueVisitCount: 2 });
    });

    it('directly at a replica, a forged X-Forwarded-For is ignored: one visitor', async () => {
      const { share: created, url } = await newShare({ perVisitorMaxVisits: 1 });
      const first = await visit(direct(url, 0), { 'user-agent': agent, 'x-forwarded-for': '198.51.100.1' });
      const second = await visit(direct(url, 1), { 'user-agent': agent, 'x-forwarded-for': '203.0.113.1' });
      expect([first.status, second.status]).toEqual([200, 410]);
      expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 1, uniqueVisitCount: 1 });
    });

    it('through the proxy, a client-sent X-Forwarded-For is ignored too (the proxy appends the real peer)', async () => {
      const { share: created, url } = await newShare({ perVisitorMaxVisits: 1 });
      const first = await visit(url, { 'user-agent': agent, 'x-forwarded-for': '198.51.100.1' });
      const second = await visit(url, { 'user-agent': agent, 'x-forwarded-for': '203.0.113.1' });
      expect([first.status, second.status]).toEqual([200, 410]);
      expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 1, uniqueVisitCount: 1 });
    });

    it('throttles share passwords per forwarded client, not per proxy', async () => {
      const { url } = await newShare({ password: 'right-one' });
      const path = new URL(url).pathname;
      const guesser = new HttpVisitor(topology.renderUrl);
      const from = (ip: string) => ({ [CLIENT_IP_HEADER]: ip });
      for (let i = 0; i < 10; i++) {
        expect((await guesser.post(path, { action: 'password', password: `guess-${i}` }, from('198.51.100.20'))).status).toBe(
          401,
        );
      }
      expect((await guesser.post(path, { action: 'password', password: 'right-one' }, from('198.51.100.20'))).status).toBe(429);
      expect(
        (
          await new HttpVisitor(topology.renderUrl).post(
            path,
            { action: 'password', password: 'right-one' },
            from('198.51.100.21'),
          )
        ).status,
      ).toBe(303);
    });

    it("honours X-Forwarded-Proto/-Host from the proxy only: a direct request cannot change the replica's origin", async () => {
      // A share link opened on PUBLIC_URL's host name is sent to RENDER_URL: the replica tells them
      // apart by the forwarded scheme and host alone, since all of them reach it from the proxy.
      const { share: created, url } = await newShare();
      const path = new URL(url).pathname;
      const onPublic = await fetch(`${topology.url}${path}`, { redirect: 'manual', headers: { 'user-agent': 'Origin/0' } });
      expect(onPublic.status).toBe(302);
      expect(onPublic.headers.get('location')).toBe(`${topology.renderUrl}${path}`);
      // The proxy forwarding https makes it another origin than PUBLIC_URL's: no redirect.
      expect(
        (await visit(`${topology.url}${path}`, { 'user-agent': 'Origin/1', [FORWARDED_PROTO_HEADER]: 'https' })).rendered,
      ).toBe(true);
      // Directly, X-Forwarded-Proto/-Host naming PUBLIC_URL are ignored: the replica stays its own origin and serves.
      const forged = {
        'x-forwarded-proto': new URL(topology.url).protocol.slice(0, -1),
        'x-forwarded-host': new URL(topology.url).host,
      };
      for (const [i, replica] of topology.replicas.entries()) {
        const answer = await visit(`${replica.baseUrl}${path}`, { 'user-agent': `Origin/${2 + i}`, ...forged });
        expect({ status: answer.status, rendered: answer.rendered }).toEqual({ status: 200, rendered: true });
      }
      expect((await getShare(alice, created.id)).visitCount).toBe(3);
    });
  });

  describe('processes killed with SIGKILL', () => {
    let hung: TcpServer;
    const hungSockets = new Set<Socket>();

    beforeAll(async () => {
      // A clamd stand-in that accepts a scan and never answers: scans stay in progress until their worker dies.
      hung = createTcpServer({ allowHalfOpen: true }, (socket) => {
        hungSockets.add(socket);
        socket.on('data', () => undefined);
        socket.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of hungSockets) socket.destroy();
      await new Promise((resolve) => hung?.close(resolve));
    });

    it('finishes every scan after the worker is killed in the middle of them', async () => {
      const { worker } = topology;
      await worker.restart({ CLAMD_PORT: String((hung.address() as { port: number }).port) });
      const uploads = await Promise.all(
        Array.from({ length: 6 }, (_, i) => uploadFile(alice.api, `scan-${i}.md`, `# Scan ${i}\n\nclean text ${i}\n`)),
      );
      const ids = uploads.map((upload) => upload.data!.file.id);
      await sleep(1500);
      for (const id of ids) expect((await waitForScan(alice.console, id, () => true)).scanStatus).toBe('PENDING');
      expect(hungSockets.size).toBeGreaterThan(0);
      await worker.kill();

      await worker.start();
      const restarted = Date.now();
      for (const id of ids) {
        expect(await waitForScan(alice.console, id, (status) => status === 'CLEAN', 90_000)).toMatchObject({
          scanStatus: 'CLEAN',
        });
      }
      console.log(
        `${ids.length} scans (${hungSockets.size} in progress at the kill) all CLEAN ${Date.now() - restarted} ms after the new worker started`,
      );
    }, 150_000);

    it('loses no count when a replica is killed under load: every answer is a render or a clean 502', async () => {
      const { share: created, url } = await newShare({ maxVisits: 1000 });
      const total = 300;
      const killAt = 100;
      const stats = topology.proxy.stats;
      const before = { refused: stats.refusedRetries, badGateway: stats.badGateway, aborted: stats.aborted };
      const outcomes: (Outcome | 'cut')[] = [];
      let issued = 0;
      let killed: Promise<void> | undefined;
      const loop = async () => {
        while (issued < total) {
          const i = issued++;
          if (i === killAt) killed = topology.replicas[1]!.kill();
          try {
            outcomes.push(await visit(url, { 'user-agent': `Load/${i % 20}` }));
          } catch {
            outcomes.push('cut');
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, loop));
      await killed;

      const answers = outcomes.filter((o): o is Outcome => o !== 'cut');
      const rendered = answers.filter((o) => o.status === 200 && o.rendered).length;
      const badGateway = answers.filter((o) => o.status === 502).length;
      const { visitCount } = await getShare(alice, created.id);
      console.log(
        `replica killed under load: ${JSON.stringify(tally(answers))}, cut ${outcomes.length - answers.length}, rendered ${rendered}, ` +
          `visitCount ${visitCount}, proxy refused→retried ${stats.refusedRetries - before.refused}, ` +
          `502 ${stats.badGateway - before.badGateway}, cut by proxy ${stats.aborted - before.aborted}`,
      );
      expect(outcomes).toHaveLength(total);
      expect(outcomes.filter((o) => o === 'cut')).toHaveLength(0);
      expect(answers.every((o) => (o.status === 200 && o.rendered) || o.status === 502)).toBe(true);
      expect(stats.refusedRetries - before.refused).toBeGreaterThan(0);
      // A 502 is a request in flight on the killed replica: its visit may or may not have been committed.
      expect(visitCount).toBeGreaterThanOrEqual(rendered);
      expect(visitCount).toBeLessThanOrEqual(rendered + badGateway);
      if (badGateway === 0) expect(visitCount).toBe(rendered);

      // Restarted on its port, the replica takes its share of requests again.
      await topology.replicas[1]!.start();
      expect((await visit(url, { 'user-agent': 'Back/1', ...pin(1) })).status).toBe(200);
    }, 90_000);
  });
});
