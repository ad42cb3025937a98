import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient, unwrap } from '@sharedown/contract';
import { allocateRedisDb, createMachineDatabase, createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import {
  HttpVisitor,
  getShare,
  waitForScan,
  isDocument,
  share,
  sql,
  upload,
  uploadRaw,
  type ShareInput,
  type UploadedDocument,
  type Visit,
} from '../support/browser.js';

const SECRET = 'The launch date is the 3rd of March.';
const TERMS = '# Non-disclosure\n\n<script>window.leak = 1</script>\n\nYou keep **everything** here to yourself.';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The sealed hidden field of an agreement page's form. */
function agreementField(page: Visit): string {
  const match = /name="agreement" value="([^"]+)"/.exec(page.body);
  if (!match) throw new Error(`no agreement form in ${page.status}: ${page.body.slice(0, 300)}`);
  return match[1]!;
}

function isAgreementPage(page: Visit): boolean {
  return page.body.includes('name="accept"') && page.body.includes('value="agree"');
}

/**
 * Agreements as a visitor meets them (the agreement page, its form, the acceptance holding on
 * reload and asked again after a change), their records for the owner through REST, and the
 * refusals of forged posts. A runs every role; B is a second api replica on the same database.
 */
describe('agreements', () => {
  let a: RunningApp;
  let b: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    const [databaseUrl, redisUrl] = await Promise.all([createMachineDatabase(), allocateRedisDb()]);
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, SESSION_SECRET: `agreements-${Date.now()}-0123456789abcdef` };
    a = await startApp({ backend: 'services', env });
    b = await startApp({ backend: 'services', role: 'api', env });
    alice = await createUser(a.baseUrl);
    bob = await createUser(a.baseUrl);
    doc = await upload(a, alice, 'plans.md', `# Plans\n\n${SECRET}\n`);
  });
  afterAll(async () => {
    await Promise.all([a?.cleanup(), b?.cleanup()]);
  });

  const create = async (input: ShareInput) => {
    const created = await share(alice, doc.fileId, input);
    return { ...created, path: new URL(created.url).pathname };
  };
  const acceptanceRows = (shareId: string) =>
    sql<{ name: string | null; email: string | null; ip_prefix: string; user_agent: string; agreement_sha256: string }>(
      a,
      'SELECT name, email, ip_prefix, user_agent, agreement_sha256 FROM share_acceptances WHERE share_id = $1 ORDER BY seq',
      [shareId],
    );
  const visitCount = async (shareId: string) => (await getShare(alice, shareId)).visitCount;
  /** A visitor's agreement page, and the post accepting it. */
  const accept = async (visitor: HttpVisitor, path: string, fields: Record<string, string> = {}) => {
    const page = await visitor.get(path);
    expect(isAgreementPage(page)).toBe(true);
    return visitor.post(path, { action: 'agree', agreement: agreementField(page), accept: 'yes', ...fields });
  };

  describe('the share', () => {
    it('carries its agreement in every answer, with the digest of the text', async () => {
      const created = await create({ agreement: { text: TERMS, requireName: true } });
      const expected = { text: TERMS, requireName: true, sha256: sha256(TERMS) };
      expect(created.share.agreement).toEqual(expected);
      expect((await getShare(alice, created.share.id)).agreement).toEqual(expected);
      const listed = await unwrap(alice.api.GET('/api/v1/shares', { params: { query: { fileId: doc.fileId } } }));
      expect(listed.shares.find((s) => s.id === created.share.id)?.agreement).toEqual(expected);
      const paged = await unwrap(alice.console.GET('/api/console/shares', { params: { query: { limit: 100 } } }));
      expect(paged.shares.find((s) => s.id === created.share.id)?.agreement).toEqual(expected);

      const plain = await create({});
      expect(plain.share.agreement).toBeUndefined();

      const changed = await unwrap(
        alice.api.PATCH('/api/v1/shares/{id}', {
          params: { path: { id: created.share.id } },
          body: { agreement: { text: 'New terms' } },
        }),
      );
      expect(changed.agreement).toEqual({ text: 'New terms', requireName: false, sha256: sha256('New terms') });
      const removed = await unwrap(
        alice.console.PATCH('/api/console/shares/{id}', {
          params: { path: { id: created.share.id } },
          body: { agreement: null },
        }),
      );
      expect(removed.agreement).toBeUndefined();
      const [history] = await sql<{ changes: { agreement: unknown } }>(
        a,
        "SELECT changes FROM share_policy_changes WHERE share_id = $1 AND changes ? 'agreement' ORDER BY at LIMIT 1",
        [created.share.id],
      );
      expect(history!.changes.agreement).toEqual({ sha256: sha256('New terms'), requireName: false });
    });

    it('refuses an agreement over the limit or of the wrong shape, naming the field, and writes nothing', async () => {
      const before = await sql<{ n: number }>(a, 'SELECT count(*)::int AS n FROM shares');
      const refusal = async (agreement: unknown) => {
        const response = await fetch(`${a.baseUrl}/api/v1/shares`, {
          method: 'POST',
          headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ fileId: doc.fileId, agreement }),
        });
        expect(response.status).toBe(400);
        return (await response.json()) as { code: string; field?: string; error: string };
      };
      expect(await refusal({ text: 'x'.repeat(20_001) })).toMatchObject({ code: 'VALIDATION', field: 'agreement.text' });
      expect(await refusal({ text: '' })).toMatchObject({ code: 'VALIDATION', field: 'agreement.text' });
      expect(await refusal({})).toMatchObject({ code: 'VALIDATION', field: 'agreement.text' });
      expect(await refusal('I agree')).toMatchObject({ code: 'VALIDATION', field: 'agreement' });
      expect(await refusal([{ text: 'x' }])).toMatchObject({ code: 'VALIDATION', field: 'agreement' });
      expect(await refusal({ text: 'x', requireName: 'yes' })).toMatchObject({ field: 'agreement.requireName' });
      expect(await refusal({ text: 'x', extra: 1 })).toMatchObject({ field: 'agreement.extra' });

      const upload = await uploadRaw(a.baseUrl, alice, 'u.md', '# u', { agreement: { text: 'x'.repeat(20_001) } });
      expect(upload.status).toBe(400);
      expect(await upload.json()).toMatchObject({ code: 'VALIDATION', field: 'share.agreement.text' });
      expect(await sql<{ n: number }>(a, 'SELECT count(*)::int AS n FROM shares')).toEqual(before);

      const { share: live } = await create({});
      const patch = await fetch(`${a.baseUrl}/api/v1/shares/${live.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agreement: { text: 'y'.repeat(20_001) } }),
      });
      expect(patch.status).toBe(400);
      expect(await patch.json()).toMatchObject({ code: 'VALIDATION', field: 'agreement.text' });
      expect((await getShare(alice, live.id)).agreement).toBeUndefined();
    });

    it('takes the agreement in an upload’s share field', async () => {
      const response = await uploadRaw(a.baseUrl, alice, 'with-terms.md', '# t', { agreement: { text: 'Upload terms' } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { share: { agreement: unknown } };
      expect(body.share.agreement).toEqual({ text: 'Upload terms', requireName: false, sha256: sha256('Upload terms') });
    });
  });

  describe('the visitor', () => {
    it('sees the agreement and nothing of the document; accepting counts no visit, the render after it counts one', async () => {
      const { share: created, path } = await create({ agreement: { text: TERMS, requireName: true } });
      const visitor = new HttpVisitor(a.baseUrl, 'Mozilla/5.0 Agreement/1');
      const page = await visitor.get(path);
      expect(page.status).toBe(200);
      expect(isAgreementPage(page)).toBe(true);
      expect(isDocument(page)).toBe(false);
      expect(page.body).not.toContain(SECRET);
      expect(page.body).toContain('<strong>everything</strong>');
      expect(page.body).not.toContain('window.leak');
      expect(page.body).toMatch(/<input type="text" name="name" required/);
      expect(page.body).toMatch(/<button type="submit"/);
      expect(await visitCount(created.id)).toBe(0);
      // In the visitor's language.
      const german = await visitor.get(path, { 'accept-language': 'de-DE,de;q=0.9' });
      expect(german.body).toContain('<html lang="de"');
      expect(german.body).toContain('Bitte stimmen Sie der Vereinbarung zu');
      expect(await visitCount(created.id)).toBe(0);

      const missingTick = await visitor.post(path, { action: 'agree', agreement: agreementField(page), name: 'Ann' });
      expect(missingTick.status).toBe(400);
      expect(isAgreementPage(missingTick)).toBe(true);
      const missingName = await visitor.post(path, { action: 'agree', agreement: agreementField(page), accept: 'yes' });
      expect(missingName.status).toBe(400);
      const longName = await visitor.post(path, {
        action: 'agree',
        agreement: agreementField(page),
        accept: 'yes',
        name: 'n'.repeat(101),
      });
      expect(longName.status).toBe(400);
      expect(await acceptanceRows(created.id)).toEqual([]);

      const accepted = await visitor.post(path, {
        action: 'agree',
        agreement: agreementField(page),
        accept: 'yes',
        name: ' Ann ',
      });
      expect(accepted.status).toBe(303);
      expect(accepted.location).toBe(path);
      expect(accepted.body).not.toContain(SECRET);
      expect(await visitCount(created.id)).toBe(0);
      expect(await acceptanceRows(created.id)).toEqual([
        {
          name: 'Ann',
          email: null,
          ip_prefix: '127.0.0.0/24',
          user_agent: 'Mozilla/5.0 Agreement/1',
          agreement_sha256: sha256(TERMS),
        },
      ]);

      const shown = await visitor.get(path);
      expect(isDocument(shown)).toBe(true);
      expect(shown.body).toContain(SECRET);
      expect(await visitCount(created.id)).toBe(1);
      // A reload does not ask again.
      expect(isDocument(await visitor.get(path))).toBe(true);
      expect(await visitCount(created.id)).toBe(2);
    });

    it('asks again once the owner changes the text, and not after the same text is written again', async () => {
      const { share: created, path } = await create({ agreement: { text: 'First terms' } });
      const visitor = new HttpVisitor(a.baseUrl);
      expect((await accept(visitor, path)).status).toBe(303);
      expect(isDocument(await visitor.get(path))).toBe(true);

      const patch = (text: string) =>
        unwrap(alice.api.PATCH('/api/v1/shares/{id}', { params: { path: { id: created.id } }, body: { agreement: { text } } }));
      await patch('First terms');
      expect(isDocument(await visitor.get(path))).toBe(true);
      await patch('Second terms');
      const again = await visitor.get(path);
      expect(isAgreementPage(again)).toBe(true);
      expect(again.body).toContain('Second terms');
      expect((await accept(visitor, path)).status).toBe(303);
      expect(isDocument(await visitor.get(path))).toBe(true);
      expect((await acceptanceRows(created.id)).map((row) => row.agreement_sha256)).toEqual([
        sha256('First terms'),
        sha256('Second terms'),
      ]);
    });

    it('comes after the password and before the reveal step', async () => {
      const { share: created, path } = await create({ password: 'open sesame', oneTime: true, agreement: { text: 'Terms' } });
      const visitor = new HttpVisitor(a.baseUrl);
      expect((await visitor.get(path)).status).toBe(401);
      const afterPassword = await visitor.post(path, { action: 'password', password: 'open sesame' });
      expect(isAgreementPage(afterPassword)).toBe(true);
      expect((await accept(visitor, path)).status).toBe(303);
      const reveal = await visitor.get(path);
      expect(reveal.body).toContain('value="reveal"');
      expect(await visitCount(created.id)).toBe(0);
      expect(isDocument(await visitor.post(path, { action: 'reveal' }))).toBe(true);
      expect(await visitCount(created.id)).toBe(1);
    });

    it('records the proven address of a signed-in visitor', async () => {
      const { share: created, path } = await create({ agreement: { text: 'Signed terms' } });
      await sql(a, 'UPDATE users SET email_verified_at = now() WHERE id = $1', [bob.userId]);
      const signedIn = new HttpVisitor(a.baseUrl).withCookie(bob.cookie);
      expect((await accept(signedIn, path)).status).toBe(303);
      expect((await acceptanceRows(created.id))[0]).toMatchObject({ email: bob.email, name: null });
    });

    it('records one acceptance of 30 parallel posts of one visitor', async () => {
      const { share: created, path } = await create({ agreement: { text: 'Parallel terms', requireName: true } });
      const visitor = new HttpVisitor(a.baseUrl);
      const field = agreementField(await visitor.get(path));
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          visitor.post(path, { action: 'agree', agreement: field, accept: 'yes', name: `Reader ${i}` }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 30 }, () => 303));
      const rows = await acceptanceRows(created.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.name).toMatch(/^Reader \d+$/);
      expect(await visitCount(created.id)).toBe(0);
    });

    it('accepted on one replica, opens on the other', async () => {
      const { share: created, path } = await create({ agreement: { text: 'Replica terms' } });
      const onA = new HttpVisitor(a.baseUrl);
      expect((await accept(onA, path)).status).toBe(303);
      const onB = new HttpVisitor(b.baseUrl);
      for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
      const shown = await onB.get(path);
      expect(isDocument(shown)).toBe(true);
      expect(shown.body).toContain(SECRET);
      expect(await visitCount(created.id)).toBe(1);
    });
  });

  describe('a collection', () => {
    it('asks for the agreement on its page and on a deep link to one of its documents, then names the reader', async () => {
      const { folder } = await unwrap(alice.api.POST('/api/v1/folders', { body: { name: `Room ${Date.now()}` } }));
      const form = new FormData();
      form.append('file', new Blob([`# Inside\n\n${SECRET}\n`], { type: 'text/plain' }), 'inside.md');
      form.append('folderId', folder.id);
      const uploaded = await fetch(`${a.baseUrl}/api/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}` },
        body: form,
      });
      const fileId = ((await uploaded.json()) as { file: { id: string } }).file.id;
      await waitForScan(alice, fileId, 'CLEAN');
      const created = await unwrap(
        alice.api.POST('/api/v1/shares', {
          body: {
            folderId: folder.id,
            agreement: { text: 'Room terms', requireName: true },
            watermarkEnabled: true,
            watermarkText: '{name} · {ip}',
          },
        }),
      );
      const listPath = new URL(created.url).pathname;
      const deepPath = `${listPath}/d/${fileId}`;

      const visitor = new HttpVisitor(a.baseUrl);
      const list = await visitor.get(listPath);
      expect(isAgreementPage(list)).toBe(true);
      const deep = await visitor.get(deepPath);
      expect(isAgreementPage(deep)).toBe(true);
      expect(deep.body).not.toContain(SECRET);
      expect(deep.body).toContain(`action="${deepPath}"`);
      expect((await getShare(alice, created.share.id)).visitCount).toBe(0);

      const accepted = await visitor.post(deepPath, {
        action: 'agree',
        agreement: agreementField(deep),
        accept: 'yes',
        name: 'Deep Reader',
      });
      expect(accepted.status).toBe(303);
      expect(accepted.location).toBe(deepPath);
      const shown = await visitor.get(deepPath);
      expect(isDocument(shown)).toBe(true);
      expect(shown.body).toContain(SECRET);
      expect(/<div class="sd-wm"[^>]*><span>([^<]*)<\/span>/.exec(shown.body)?.[1]).toBe('Deep Reader · 127.0.0.0/24');
      expect((await getShare(alice, created.share.id)).visitCount).toBe(1);
      // The same acceptance holds for the collection's own page.
      expect(isAgreementPage(await visitor.get(listPath))).toBe(false);
    });
  });

  describe('forged posts', () => {
    it('are refused and record nothing: no visitor cookie, another share’s form, a replay on another share', async () => {
      const x = await create({ agreement: { text: 'Terms X' } });
      const y = await create({ agreement: { text: 'Terms X' } });
      const visitor = new HttpVisitor(a.baseUrl);
      const fieldX = agreementField(await visitor.get(x.path));
      const fields = { action: 'agree', accept: 'yes' };

      // The same request without the visitor cookie (same address and browser).
      const cookieless = new HttpVisitor(a.baseUrl);
      const noCookie = await cookieless.post(x.path, { ...fields, agreement: fieldX });
      expect(noCookie.status).toBe(403);
      // X's form posted to Y (same text, same visitor).
      expect((await visitor.post(y.path, { ...fields, agreement: fieldX })).status).toBe(403);
      // No form at all, or a made-up one.
      expect((await visitor.post(x.path, fields)).status).toBe(403);
      expect((await visitor.post(x.path, { ...fields, agreement: `${fieldX.slice(0, -3)}abc` })).status).toBe(403);
      // Another visitor's form.
      const other = new HttpVisitor(a.baseUrl, 'Mozilla/5.0 Other');
      expect((await other.get(x.path)).status).toBe(200);
      expect((await other.post(x.path, { ...fields, agreement: fieldX })).status).toBe(403);
      // A form from another site.
      expect((await visitor.post(x.path, { ...fields, agreement: fieldX }, { origin: 'https://evil.example' })).status).toBe(403);
      expect(await acceptanceRows(x.share.id)).toEqual([]);

      // A valid post on X, replayed on Y.
      expect((await visitor.post(x.path, { ...fields, agreement: fieldX })).status).toBe(303);
      expect((await visitor.post(y.path, { ...fields, agreement: fieldX })).status).toBe(403);
      expect(await acceptanceRows(x.share.id)).toHaveLength(1);
      expect(await acceptanceRows(y.share.id)).toEqual([]);
      expect(isAgreementPage(await visitor.get(y.path))).toBe(true);
    });
  });

  describe('the acceptances', () => {
    let shareId: string;
    const agents = ['Reader/1', 'Reader/2', 'Reader/3', 'Reader/4', '=cmd|calc'];

    beforeAll(async () => {
      const created = await create({ agreement: { text: 'Listed terms', requireName: true } });
      shareId = created.share.id;
      for (const [i, agent] of agents.entries()) {
        expect((await accept(new HttpVisitor(a.baseUrl, agent), created.path, { name: `Reader ${i}` })).status).toBe(303);
      }
    });

    const pageOf = (query: { limit?: number; cursor?: string }, client = alice.api) =>
      unwrap(client.GET('/api/v1/shares/{id}/acceptances', { params: { path: { id: shareId }, query } }));

    it('come in pages, newest first, with exactly their fields', async () => {
      const first = await pageOf({ limit: 2 });
      expect(first.acceptances).toHaveLength(2);
      // The contract's fields, and the browser, system and device read from the User-Agent when it names any.
      const fields = Object.keys(first.acceptances[0]!);
      expect(fields.filter((field) => !['browser', 'os', 'device'].includes(field)).sort()).toEqual(
        ['agreementSha256', 'at', 'email', 'id', 'ipPrefix', 'name', 'userAgent'].sort(),
      );
      expect(first.acceptances[0]).toMatchObject({
        name: 'Reader 4',
        email: null,
        ipPrefix: '127.0.0.0/24',
        userAgent: '=cmd|calc',
        agreementSha256: sha256('Listed terms'),
      });
      const second = await pageOf({ limit: 2, cursor: first.nextCursor! });
      const third = await pageOf({ limit: 2, cursor: second.nextCursor! });
      expect(third.nextCursor).toBeNull();
      expect([...first.acceptances, ...second.acceptances, ...third.acceptances].map((row) => row.name)).toEqual([
        'Reader 4',
        'Reader 3',
        'Reader 2',
        'Reader 1',
        'Reader 0',
      ]);
      const all = await pageOf({});
      expect(all).toMatchObject({ nextCursor: null });
      expect(all.acceptances).toHaveLength(5);
      const consoleAnswer = await unwrap(
        alice.console.GET('/api/console/shares/{id}/acceptances', { params: { path: { id: shareId }, query: {} } }),
      );
      expect(consoleAnswer).toEqual(all);
    });

    it('as CSV, with a header line and formulas defused', async () => {
      for (const url of [
        `${a.baseUrl}/api/v1/shares/${shareId}/acceptances.csv`,
        `${a.baseUrl}/v1/shares/${shareId}/acceptances.csv`,
      ]) {
        const response = await fetch(url, { headers: { authorization: `Bearer ${alice.token}` } });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
        const lines = (await response.text()).trim().split('\n');
        expect(lines[0]).toBe('id,at,name,email,ipPrefix,userAgent,agreementSha256');
        expect(lines).toHaveLength(6);
        expect(lines[1]).toContain(`Reader 4,,127.0.0.0/24,'=cmd|calc,${sha256('Listed terms')}`);
      }
      const viaConsole = await fetch(`${a.baseUrl}/api/console/shares/${shareId}/acceptances.csv`, {
        headers: { cookie: alice.cookie },
      });
      expect((await viaConsole.text()).trim().split('\n')).toHaveLength(6);
    });

    it('answer a read-scoped token, 404 another account, 400 a bad page', async () => {
      const reader = await unwrap(
        alice.console.POST('/api/tokens', { body: { name: 'reader', scopes: ['read'], rateLimitPerMinute: 600 } }),
      );
      const readClient = createSharedownClient({ baseUrl: a.baseUrl, token: reader.plaintext });
      expect((await pageOf({}, readClient)).acceptances).toHaveLength(5);

      for (const path of [`/api/v1/shares/${shareId}/acceptances`, `/api/v1/shares/${shareId}/acceptances.csv`]) {
        const response = await fetch(`${a.baseUrl}${path}`, { headers: { authorization: `Bearer ${bob.token}` } });
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
      const consoleOther = await fetch(`${a.baseUrl}/api/console/shares/${shareId}/acceptances`, {
        headers: { cookie: bob.cookie },
      });
      expect(consoleOther.status).toBe(404);
      const unknown = await fetch(`${a.baseUrl}/api/v1/shares/not-a-share/acceptances`, {
        headers: { authorization: `Bearer ${alice.token}` },
      });
      expect(unknown.status).toBe(404);
      for (const query of [
        'limit=0',
        'limit=201',
        'cursor=@@',
        `cursor=${Buffer.from('x').toString('base64url')}`,
        `cursor=${Buffer.from('a9999999999999999999').toString('base64url')}`,
      ]) {
        const response = await fetch(`${a.baseUrl}/api/v1/shares/${shareId}/acceptances?${query}`, {
          headers: { authorization: `Bearer ${alice.token}` },
        });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ code: 'VALIDATION' });
      }
    });
  });

  describe('watermarks that name the reader', () => {
    it('fill in the name on the acceptance, the date and the network; nothing for an absent address', async () => {
      const { path } = await create({
        agreement: { text: 'Watermark terms', requireName: true },
        watermarkEnabled: true,
        watermarkText: '{name} · {email} · {date} · {ip}',
      });
      const visitor = new HttpVisitor(a.baseUrl);
      expect((await accept(visitor, path, { name: 'Ann Lee' })).status).toBe(303);
      const shown = await visitor.get(path);
      expect(isDocument(shown)).toBe(true);
      const today = new Date().toISOString().slice(0, 10);
      const mark = /<div class="sd-wm"[^>]*><span>([^<]*)<\/span>/.exec(shown.body)?.[1];
      expect(mark).toBe(`Ann Lee · ${today} · 127.0.0.0/24`);
      expect(shown.body).not.toContain('{email}');
    });
  });
});
