import { unwrap } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { HttpVisitor, share, sql, upload, type UploadedDocument } from '../support/browser.js';

const FILE_NAME = 'merger-plan-confidential.md';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** What a stranger holding a link learns before any gate, and how reports are throttled behind a proxy. */
describe('what a link tells strangers, and reports by network', () => {
  let app: RunningApp;
  let alice: TestUser;
  let doc: UploadedDocument;

  beforeAll(async () => {
    app = await startApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    alice = await createUser(app.baseUrl);
    doc = await upload(app, alice, FILE_NAME, '# Merger\n\nconfidential\n');
  });
  afterAll(async () => app?.cleanup());

  const pathOf = (url: string) => new URL(url).pathname;

  it('names the file of an open link on its preview card and report form', async () => {
    const { url } = await share(alice, doc.fileId);
    const preview = await new HttpVisitor(app.baseUrl, SLACK).get(pathOf(url));
    expect(preview.status).toBe(200);
    expect(preview.body).toContain(FILE_NAME);
    expect((await new HttpVisitor(app.baseUrl).get(`${pathOf(url)}/report`)).body).toContain(FILE_NAME);
  });

  it.each([
    ['the login rule', { requireLogin: true }],
    ['an allowlist', { emailAllowlist: ['someone@example.com'] }],
    ['a per-account cap', { perLoginUserMaxVisits: 2 }],
  ])('keeps the file name of a link with %s off its preview card and report form', async (_case, policy) => {
    const { url } = await share(alice, doc.fileId, policy);
    const preview = await new HttpVisitor(app.baseUrl, SLACK).get(pathOf(url));
    expect(preview.status).toBe(200);
    expect(preview.body).not.toContain('merger-plan');
    const form = await new HttpVisitor(app.baseUrl).get(`${pathOf(url)}/report`);
    expect(form.status).toBe(200);
    expect(form.body).not.toContain('merger-plan');
    expect(form.body).toContain('name="reason"');
  });

  it('takes no report on a revoked link and names nothing there', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    await unwrap(alice.api.DELETE('/api/v1/shares/{id}', { params: { path: { id: created.id } } }));
    const visitor = new HttpVisitor(app.baseUrl);
    const form = await visitor.get(`${pathOf(url)}/report`);
    expect(form.status).toBe(410);
    expect(form.body).not.toContain('merger-plan');
    expect(form.body).not.toContain('name="reason"');
    const posted = await visitor.post(`${pathOf(url)}/report`, { reason: 'a report on a dead link' });
    expect(posted.status).toBe(410);
    expect(await sql(app, 'SELECT 1 FROM share_reports WHERE share_id = $1', [created.id])).toHaveLength(0);
    const preview = await new HttpVisitor(app.baseUrl, SLACK).get(pathOf(url));
    expect(preview.body).not.toContain('merger-plan');
  });

  it('throttles reports per IPv6 /64, not per address: rotating addresses buys nothing', async () => {
    const { share: created, url } = await share(alice, doc.fileId);
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i++) {
      const visitor = new HttpVisitor(app.baseUrl);
      const answer = await visitor.post(
        `${pathOf(url)}/report`,
        { reason: `report from host ${i}` },
        { 'x-forwarded-for': `2001:db8:1234:5678::${i.toString(16)}` },
      );
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    expect(await sql(app, 'SELECT 1 FROM share_reports WHERE share_id = $1', [created.id])).toHaveLength(10);
    // Another network has its own budget.
    const other = await new HttpVisitor(app.baseUrl).post(
      `${pathOf(url)}/report`,
      { reason: 'from elsewhere' },
      { 'x-forwarded-for': '2001:db8:9999:1::1' },
    );
    expect(other.status).toBe(200);
  });
});
