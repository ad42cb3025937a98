import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient } from '@sharedown/contract';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { sql } from '../support/uploads.js';

let app: RunningApp;
let user: TestUser;
let databaseUrl: string;

beforeAll(async () => {
  app = await startApp();
  user = await createUser(app.baseUrl);
  databaseUrl = await app.databaseUrl();
});

afterAll(async () => {
  await app?.cleanup();
});

function validate(body: unknown) {
  return user.api.POST('/api/v1/validate', { body: body as never });
}

/** Row counts of every table of the service's schema. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await sql<{ table_name: string }>(
    databaseUrl,
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [{ count }] = await sql<{ count: string }>(databaseUrl, `SELECT count(*) AS count FROM "${table_name}"`);
    counts[table_name] = Number(count);
  }
  return counts;
}

describe('POST /validate', () => {
  it('normalizes exactly as the contract says', async () => {
    const { data, response } = await validate({ content: '\uFEFFline one  \r\n\tindented\t\r\nlast \t', kind: 'TEXT' });
    expect(response.status).toBe(200);
    expect(data).toEqual({ kind: 'TEXT', ok: true, normalized: 'line one\n    indented\nlast', issues: [] });
  });

  it('reports HTML structure errors with line and column, and document warnings', async () => {
    const content = [
      '<!DOCTYPE html>',
      '<html><head><title>T</title></head><body>',
      '<div id="a"><span>x</div>',
      '<p id="a">y</p>',
      '</section>',
      '</body></html>',
    ].join('\n');
    const { data } = await validate({ content, kind: 'HTML' });
    expect(data!.ok).toBe(false);
    expect(data!.issues).toEqual([
      expect.objectContaining({ level: 'error', line: 3, col: 20 }),
      expect.objectContaining({ level: 'error', line: 4, col: 4 }),
      expect.objectContaining({ level: 'error', line: 5, col: 1 }),
    ]);
    const loose = await validate({ content: '<p onclick="x()">hi</p><script>1</script>', kind: 'HTML' });
    expect(loose.data!.ok).toBe(true);
    expect(loose.data!.issues.map((issue) => issue.level)).toEqual(['warning', 'warning', 'warning', 'warning']);
  });

  it('reports Markdown problems: open fences, undefined references, stripped HTML', async () => {
    const content = [
      '# Doc',
      '',
      'See [guide][nowhere].',
      '',
      '<iframe src="https://example.com"></iframe>',
      '',
      '```js',
      'open',
    ].join('\n');
    const { data } = await validate({ content, kind: 'MARKDOWN' });
    expect(data!.ok).toBe(false);
    expect(data!.issues.map((issue) => [issue.level, issue.line])).toEqual([
      ['error', 3],
      ['warning', 5],
      ['error', 7],
    ]);
  });

  it('reports control characters in text', async () => {
    const { data } = await validate({ content: 'fine\nbad\u0001here', kind: 'TEXT' });
    expect(data).toMatchObject({ ok: false, issues: [{ level: 'error', line: 2, col: 4 }] });
  });

  it('accepts 1048576 characters and refuses one more with 400 VALIDATION', async () => {
    const exact = await validate({ content: 'a'.repeat(1_048_576), kind: 'TEXT' });
    expect(exact.response.status).toBe(200);
    const over = await validate({ content: 'a'.repeat(1_048_577), kind: 'TEXT' });
    expect(over.response.status).toBe(400);
    expect(over.error).toMatchObject({ code: 'VALIDATION' });
    const astral = await validate({ content: '😀'.repeat(1_048_576), kind: 'TEXT' });
    expect(astral.response.status).toBe(200);
  });

  it('refuses malformed requests with 400 VALIDATION', async () => {
    for (const body of [
      { kind: 'TEXT' },
      { content: 'x' },
      { content: 'x', kind: 'PDF' },
      { content: 42, kind: 'TEXT' },
      { content: null, kind: 'HTML' },
      { content: 'x', kind: 'TEXT', extra: true },
    ]) {
      const { response, error } = await validate(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error).toMatchObject({ code: 'VALIDATION' });
    }
    const broken = await fetch(`${app.baseUrl}/api/v1/validate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: '{"content":',
    });
    expect(broken.status).toBe(400);
  });

  it('needs a bearer token and answers on /v1 too', async () => {
    const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
    expect((await anonymous.POST('/api/v1/validate', { body: { content: 'x', kind: 'TEXT' } })).response.status).toBe(401);
    const legacy = await fetch(`${app.baseUrl}/v1/validate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'a\r\n', kind: 'MARKDOWN' }),
    });
    expect(await legacy.json()).toEqual({ kind: 'MARKDOWN', ok: true, normalized: 'a\n', issues: [] });
  });

  it('writes nothing to the database', async () => {
    // The token's own bookkeeping (last use, rate bucket) exists after one call; then nothing may change.
    await validate({ content: 'warm up', kind: 'TEXT' });
    const before = await rowCounts();
    for (const kind of ['HTML', 'MARKDOWN', 'TEXT']) {
      const { response } = await validate({ content: '<div>\n# x\n\u0001', kind });
      expect(response.status).toBe(200);
    }
    await validate({ content: 'x', kind: 'NOPE' });
    expect(await rowCounts()).toEqual(before);
    expect(before.files).toBe(0);
    expect(before.file_versions).toBe(0);
  });
});
