import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { getShare, share, sql, upload, type ShareInput, type UploadedDocument } from '../support/browser.js';

const PARALLEL = 200;
const CONTENT = '# Limited\n\nOnly a few may read this.\n';

interface Outcome {
  status: number;
  rendered: boolean;
}

/** Fires `PARALLEL` requests at once (no cookies) and reports each answer. */
async function burst(url: string, init: (i: number) => RequestInit): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: PARALLEL }, async (_, i) => {
      const response = await fetch(url, { redirect: 'manual', ...init(i) });
      const body = await response.text();
      return { status: response.status, rendered: body.includes('Only a few may read this.') };
    }),
  );
}

function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of outcomes) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe(`caps under ${PARALLEL} concurrent visits`, () => {
  let app: RunningApp;
  let alice: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    app = await startApp();
    alice = await createUser(app.baseUrl);
    doc = await upload(app, alice, 'limited.md', CONTENT);
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  const create = async (input: ShareInput) => share(alice, doc.fileId, input);
  const hourTotal = async (shareId: string) =>
    (
      await sql<{ total: string }>(app, 'SELECT coalesce(sum(visits), 0) AS total FROM share_visit_hours WHERE share_id = $1', [
        shareId,
      ])
    )[0]!.total;

  it.each([1, 7, 50])('a maxVisits %i link admits exactly that many renders and is consumed at the last', async (cap) => {
    const { share: created, url } = await create({ maxVisits: cap });
    const outcomes = await burst(url, (i) => ({ headers: { 'user-agent': `Parallel/${i}` } }));
    expect(tally(outcomes)).toEqual({ 200: cap, 410: PARALLEL - cap });
    expect(outcomes.filter((o) => o.rendered)).toHaveLength(cap);
    const after = await getShare(alice, created.id);
    expect(after).toMatchObject({ visitCount: cap, uniqueVisitCount: cap });
    expect(after.consumedAt).not.toBeNull();
    expect(Number(await hourTotal(created.id))).toBe(cap);
  });

  it('a perVisitorMaxVisits link admits exactly that many renders per visitor', async () => {
    const cap = 3;
    const { share: created, url } = await create({ perVisitorMaxVisits: cap });
    // Four visitors (four User-Agents behind one address, no cookies), fifty requests each.
    const outcomes = await burst(url, (i) => ({ headers: { 'user-agent': `Visitor/${i % 4}` } }));
    expect(tally(outcomes)).toEqual({ 200: 4 * cap, 410: PARALLEL - 4 * cap });
    const after = await getShare(alice, created.id);
    expect(after).toMatchObject({ visitCount: 4 * cap, uniqueVisitCount: 4, consumedAt: null });
    const visitors = await sql<{ visits: number }>(app, 'SELECT visits FROM share_visitors WHERE share_id = $1', [created.id]);
    expect(visitors.map((v) => v.visits)).toEqual([cap, cap, cap, cap]);
  });

  it('a one-time link opens for exactly one of many parallel reveals', async () => {
    const { share: created, url } = await create({ oneTime: true });
    const outcomes = await burst(url, (i) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': `Revealer/${i}` },
      body: 'action=reveal',
    }));
    expect(tally(outcomes)).toEqual({ 200: 1, 410: PARALLEL - 1 });
    expect(outcomes.filter((o) => o.rendered)).toHaveLength(1);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 1, consumedAt: expect.any(String) });
  });

  it('a total cap and a per-visitor cap together stay exact', async () => {
    const { share: created, url } = await create({ maxVisits: 10, perVisitorMaxVisits: 2 });
    const outcomes = await burst(url, (i) => ({ headers: { 'user-agent': `Mixed/${i % 8}` } }));
    expect(tally(outcomes)).toEqual({ 200: 10, 410: PARALLEL - 10 });
    const visitors = await sql<{ visits: number }>(app, 'SELECT visits FROM share_visitors WHERE share_id = $1', [created.id]);
    expect(visitors.every((v) => v.visits <= 2)).toBe(true);
    expect(visitors.reduce((sum, v) => sum + v.visits, 0)).toBe(10);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 10, consumedAt: expect.any(String) });
  });

  it('an uncapped link counts every one of the parallel visits', async () => {
    const { share: created, url } = await create({});
    const outcomes = await burst(url, (i) => ({ headers: { 'user-agent': `Open/${i % 10}` } }));
    expect(tally(outcomes)).toEqual({ 200: PARALLEL });
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: PARALLEL, uniqueVisitCount: 10 });
  });
});

describe(`caps under ${PARALLEL} concurrent visits spread over two api processes`, () => {
  const SESSION_SECRET = 'replica-test-session-secret-0123456789abcdef';
  let first: RunningApp;
  let second: RunningApp;
  let alice: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    first = await startApp({ env: { SESSION_SECRET } });
    second = await startApp({
      env: {
        SESSION_SECRET,
        DATABASE_URL: await first.databaseUrl(),
        ...(first.env.REDIS_URL ? { REDIS_URL: first.env.REDIS_URL } : {}),
      },
    });
    alice = await createUser(first.baseUrl);
    doc = await upload(first, alice, 'replicas.md', CONTENT);
  });
  afterAll(async () => {
    await second?.cleanup();
    await first?.cleanup();
  });

  const spread = (url: string) => (i: number) => (i % 2 === 0 ? url : url.replace(first.baseUrl, second.baseUrl));

  async function burstOver(url: string, init: (i: number) => RequestInit): Promise<Outcome[]> {
    const target = spread(url);
    return Promise.all(
      Array.from({ length: PARALLEL }, async (_, i) => {
        const response = await fetch(target(i), { redirect: 'manual', ...init(i) });
        const body = await response.text();
        return { status: response.status, rendered: body.includes('Only a few may read this.') };
      }),
    );
  }

  it('admits exactly maxVisits renders between both processes', async () => {
    const { share: created, url } = await share(alice, doc.fileId, { maxVisits: 13 });
    const outcomes = await burstOver(url, (i) => ({ headers: { 'user-agent': `Replica/${i}` } }));
    expect(tally(outcomes)).toEqual({ 200: 13, 410: PARALLEL - 13 });
    expect(await getShare(alice, created.id)).toMatchObject({
      visitCount: 13,
      uniqueVisitCount: 13,
      consumedAt: expect.any(String),
    });
  });

  it('admits exactly perVisitorMaxVisits renders per visitor between both processes', async () => {
    const { share: created, url } = await share(alice, doc.fileId, { perVisitorMaxVisits: 3 });
    const outcomes = await burstOver(url, (i) => ({ headers: { 'user-agent': `ReplicaVisitor/${i % 5}` } }));
    expect(tally(outcomes)).toEqual({ 200: 15, 410: PARALLEL - 15 });
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: 15, uniqueVisitCount: 5 });
  });

  it('counts every visit to an uncapped link across both processes', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const outcomes = await burstOver(url, (i) => ({ headers: { 'user-agent': `Numbered/${i % 3}` } }));
    expect(tally(outcomes)).toEqual({ 200: PARALLEL });
    const visitors = await sql<{ visits: number }>(first, 'SELECT visits FROM share_visitors WHERE share_id = $1', [created.id]);
    expect(visitors.reduce((sum, v) => sum + v.visits, 0)).toBe(PARALLEL);
    expect(await getShare(alice, created.id)).toMatchObject({ visitCount: PARALLEL, uniqueVisitCount: 3 });
  });
});
