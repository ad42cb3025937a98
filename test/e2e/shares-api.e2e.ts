import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedownApiError, unwrap } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { getShare, share, sql, upload, uploadRaw, type UploadedDocument } from '../support/browser.js';

const SHARE_FIELDS = [
  'id',
  'token',
  'ownerSegment',
  'fileId',
  'fileName',
  'fileKind',
  'hasPassword',
  'expiresAt',
  'maxVisits',
  'perVisitorMaxVisits',
  'perLoginUserMaxVisits',
  'visitCount',
  'uniqueVisitCount',
  'oneTime',
  'requireLogin',
  'watermarkEnabled',
  'watermarkText',
  'copyProtectionEnabled',
  'burnAfterReadEnabled',
  'revokedAt',
  'consumedAt',
  'createdAt',
].sort();

const EICAR = String.raw`X5O!P%@AP[4\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*`;

async function failure(call: Promise<unknown>): Promise<SharedownApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof SharedownApiError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('shares REST API', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    doc = await upload(app, alice, 'notes.md', '# Notes\n\nhello\n');
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  const post = (user: TestUser, body: Record<string, unknown>, prefix = '/api/v1') =>
    fetch(`${app.baseUrl}${prefix}/shares`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const answerOf = async (response: Response) => ({ status: response.status, body: await response.json() });

  it('creates a share with exactly the contract fields and an absolute view URL', async () => {
    const created = await share(alice, doc.fileId);
    expect(Object.keys(created.share).sort()).toEqual(SHARE_FIELDS);
    expect(created.share).toMatchObject({
      ownerSegment: alice.segment,
      fileId: doc.fileId,
      fileName: 'notes.md',
      fileKind: 'MARKDOWN',
      hasPassword: false,
      expiresAt: null,
      maxVisits: null,
      visitCount: 0,
      uniqueVisitCount: 0,
      oneTime: false,
      requireLogin: false,
      revokedAt: null,
      consumedAt: null,
    });
    // A random token of at least 128 bits, URL-safe.
    expect(created.share.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(created.url).toBe(`${app.baseUrl}/s/${alice.segment}/${created.share.token}`);
  });

  it('answers the same routes under /v1', async () => {
    const response = await post(alice, { fileId: doc.fileId, maxVisits: 3 }, '/v1');
    expect(response.status).toBe(200);
    const { share: created } = (await response.json()) as { share: { id: string } };
    const fetched = await fetch(`${app.baseUrl}/v1/shares/${created.id}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(await fetched.json()).toMatchObject({ id: created.id, maxVisits: 3 });
  });

  it('gets a share at top level, lists them by file, revokes idempotently', async () => {
    const other = await upload(app, alice, 'other.txt', 'plain text');
    const first = await share(alice, doc.fileId, { watermarkEnabled: true, watermarkText: 'CONFIDENTIAL' });
    const second = await share(alice, other.fileId);

    expect(await getShare(alice, first.share.id)).toEqual(first.share);
    const listed = await unwrap(alice.api.GET('/api/v1/shares', { params: { query: { fileId: other.fileId } } }));
    expect(listed.shares.map((s) => s.id)).toEqual([second.share.id]);
    const all = await unwrap(alice.api.GET('/api/v1/shares'));
    expect(all.shares.map((s) => s.id)).toEqual(expect.arrayContaining([first.share.id, second.share.id]));
    expect((await unwrap(bob.api.GET('/api/v1/shares'))).shares).toEqual([]);

    const revoked = await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: first.share.id } } }));
    expect(revoked.share.revokedAt).not.toBeNull();
    const again = await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: first.share.id } } }));
    expect(again.share.revokedAt).toBe(revoked.share.revokedAt);
    expect((await getShare(alice, first.share.id)).revokedAt).toBe(revoked.share.revokedAt);
  });

  it("hides other users' shares and unknown ids behind 404", async () => {
    const created = await share(alice, doc.fileId);
    for (const id of [created.share.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await failure(unwrap(bob.api.GET('/api/v1/shares/{id}', { params: { path: { id } } })))).status).toBe(404);
      const refused = await failure(unwrap(bob.api.DELETE('/api/v1/shares/{id}', { params: { path: { id } } })));
      expect(refused).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect((await getShare(alice, created.share.id)).revokedAt).toBeNull();
  });

  it('never reveals a password or its hash', async () => {
    const created = await share(alice, doc.fileId, { password: 'open-sesame' });
    expect(created.share.hasPassword).toBe(true);
    const everything = JSON.stringify([
      created,
      await getShare(alice, created.share.id),
      await unwrap(alice.api.GET('/api/v1/shares')),
    ]);
    expect(everything).not.toContain('open-sesame');
    expect(everything).not.toContain('argon2');
  });

  it('applies the implications: oneTime is one visit, per-login caps and allowlists need login', async () => {
    expect((await share(alice, doc.fileId, { oneTime: true, maxVisits: 50 })).share).toMatchObject({
      oneTime: true,
      maxVisits: 1,
    });
    expect((await share(alice, doc.fileId, { perLoginUserMaxVisits: 2 })).share).toMatchObject({
      perLoginUserMaxVisits: 2,
      requireLogin: true,
    });
    expect((await share(alice, doc.fileId, { emailAllowlist: [bob.email] })).share.requireLogin).toBe(true);
    const expiring = await share(alice, doc.fileId, { expiresInDays: 7 });
    const days = (Date.parse(expiring.share.expiresAt!) - Date.parse(expiring.share.createdAt!)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
  });

  it('refuses an invalid ShareInput with 400 VALIDATION naming the field on every route that creates shares', async () => {
    // The rules are tabled once, in apps/api/src/shares/share-input.spec.ts; this checks that each route applies them.
    const routes: Array<[string, (body: Record<string, unknown>) => Promise<{ status: number; body: unknown }>]> = [
      ['/api/v1', async (body) => answerOf(await post(alice, body))],
      ['/v1', async (body) => answerOf(await post(alice, body, '/v1'))],
      [
        'console',
        async (body) => {
          const { response, error } = await alice.console.POST('/api/console/shares', { body: body as never });
          return { status: response.status, body: error };
        },
      ],
    ];
    const before = await sql(app, 'SELECT id FROM shares WHERE file_id = $1', [doc.fileId]);
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ maxVisits: 0 }, 'maxVisits'],
      [{ watermarkText: 'nul\u0000char' }, 'watermarkText'],
      [{ colour: 'red' }, 'colour'],
      [{ fileId: 42 }, 'fileId'],
    ];
    for (const [route, create] of routes) {
      for (const [input, field] of refusals) {
        const answer = await create({ fileId: doc.fileId, ...input });
        expect(answer.status, `${route} ${field}`).toBe(400);
        expect(answer.body).toMatchObject({ error: expect.stringContaining(field), code: 'VALIDATION' });
      }
    }
    expect(await sql(app, 'SELECT id FROM shares WHERE file_id = $1', [doc.fileId])).toEqual(before);
  });

  it('requires fileId and refuses a non-object body', async () => {
    const missing = await post(alice, { maxVisits: 2 });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toContain('fileId');
    const array = await fetch(`${app.baseUrl}/api/v1/shares`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: '[1,2]',
    });
    expect(array.status).toBe(400);
  });

  it('answers 404 for a missing, foreign or trashed file', async () => {
    const trashed = await upload(app, alice, 'trash-me.txt', 'bye');
    await unwrap(alice.api.DELETE('/api/v1/files/{id}', { params: { path: { id: trashed.fileId } } }));
    for (const fileId of ['00000000-0000-4000-8000-000000000000', 'garbage', trashed.fileId]) {
      expect(await failure(share(alice, fileId))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect(await failure(share(bob, doc.fileId))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('refuses to share a quarantined file with 409 INFECTED', async () => {
    const infected = await upload(app, alice, 'eicar.txt', EICAR, undefined, 'INFECTED');
    expect(await failure(share(alice, infected.fileId))).toMatchObject({ status: 409, code: 'INFECTED' });
  });

  it('pins a version of the file, and only a version of that file', async () => {
    const other = await upload(app, alice, 'pin-other.md', '# other');
    const pinned = await share(alice, doc.fileId, { lockedVersionId: doc.versionId });
    expect(pinned.share.fileId).toBe(doc.fileId);
    for (const lockedVersionId of [other.versionId, '00000000-0000-4000-8000-000000000000', 'v1']) {
      const refused = await failure(share(alice, doc.fileId, { lockedVersionId }));
      expect(refused).toMatchObject({ status: 400, code: 'VALIDATION' });
      expect(refused.message).toContain('lockedVersionId');
    }
  });

  it('keeps slugs unique across the service, case-insensitively', async () => {
    const slug = `Team-Notes-${Date.now()}`;
    const created = await share(alice, doc.fileId, { slug });
    expect(created.share.token).toBe(slug);
    expect(created.url).toBe(`${app.baseUrl}/s/${alice.segment}/${slug}`);
    const bobsFile = await upload(app, bob, 'bob.md', '# bob');
    expect(await failure(share(bob, bobsFile.fileId, { slug: slug.toLowerCase() }))).toMatchObject({
      status: 409,
      code: 'SLUG_TAKEN',
    });
    expect(await failure(share(alice, doc.fileId, { slug: slug.toUpperCase() }))).toMatchObject({
      status: 409,
      code: 'SLUG_TAKEN',
    });
    // Words the viewer itself uses under /s/ are never available.
    expect(await failure(share(alice, doc.fileId, { slug: '_login' }))).toMatchObject({ status: 409, code: 'SLUG_TAKEN' });
  });

  it('gives a slug to exactly one of many parallel creations', async () => {
    const slug = `race-${Date.now()}`;
    const bobsFile = await upload(app, bob, 'race.md', '# race');
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 ? alice : bob, { fileId: i % 2 ? doc.fileId : bobsFile.fileId, slug })),
    );
    const statuses = attempts.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(11);
    const bodies = await Promise.all(attempts.filter((r) => r.status === 409).map((r) => r.json() as Promise<{ code: string }>));
    expect(new Set(bodies.map((b) => b.code))).toEqual(new Set(['SLUG_TAKEN']));
    expect(await sql(app, 'SELECT id FROM shares WHERE lower(token) = lower($1)', [slug])).toHaveLength(1);
  });

  it('creates file and share together on upload, or neither', async () => {
    const created = await uploadRaw(app.baseUrl, alice, 'with-share.md', '# shared on upload', {
      maxVisits: 5,
      password: 'letmein',
    });
    expect(created.status).toBe(200);
    const body = (await created.json()) as { file: { id: string; name: string }; share: Record<string, unknown>; url: string };
    expect(body.file.name).toBe('with-share.md');
    expect(Object.keys(body.share).sort()).toEqual(SHARE_FIELDS);
    expect(body.share).toMatchObject({ fileId: body.file.id, maxVisits: 5, hasPassword: true });
    expect(body.url).toBe(`${app.baseUrl}/s/${alice.segment}/${body.share.token}`);

    const before = await unwrap(alice.api.GET('/api/v1/me'));
    const slug = `upload-${Date.now()}`;
    await share(alice, doc.fileId, { slug });
    const refusals = [
      { share: { maxVisits: 0 }, status: 400, code: 'VALIDATION', mentions: 'maxVisits' },
      { share: { unknownOption: true }, status: 400, code: 'VALIDATION', mentions: 'unknownOption' },
      { share: '{not json', status: 400, code: 'VALIDATION', mentions: 'share' },
      { share: { slug: slug.toUpperCase() }, status: 409, code: 'SLUG_TAKEN', mentions: '' },
    ];
    for (const [i, refusal] of refusals.entries()) {
      const response = await uploadRaw(app.baseUrl, alice, `refused-${i}.md`, '# never stored', refusal.share);
      expect(response.status).toBe(refusal.status);
      const error = (await response.json()) as { error: string; code: string };
      expect(error.code).toBe(refusal.code);
      expect(error.error).toContain(refusal.mentions);
    }
    const names = (await unwrap(alice.api.GET('/api/v1/files'))).files.map((file) => file.name);
    expect(names.filter((name) => name.startsWith('refused-'))).toEqual([]);
    expect((await unwrap(alice.api.GET('/api/v1/me'))).user.usedBytes).toBe(before.user.usedBytes);
  });
});
