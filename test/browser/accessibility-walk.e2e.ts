import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSharedownClient, unwrap } from '@sharedown/contract';
import { sessionCookieOf, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { ARTIFACTS, launchChromium, share, upload, waitForScan } from '../support/browser.js';
import { axeViolations, sidewaysOverflow, wordsBrokenInCells } from '../support/page-audit.js';
import { SmtpReceiver } from '../support/smtp-receiver.js';

/**
 * Every console page and every visitor page, in English and German, on a desktop and on a 390 px
 * phone: no WCAG 2.1 A/AA violation, nothing scrolling sideways on the phone, no table cell
 * splitting a word. Each page is photographed into test/artifacts/screens/ with an index, so a
 * person can look at what the checks passed.
 */

const SCREENS = join(ARTIFACTS, 'screens');
const LANGUAGES = [
  { code: 'en', locale: 'en-US' },
  { code: 'de', locale: 'de-DE' },
] as const;
const SIZES = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const REPORT = `# Quarterly report

Revenue grew in every region.

## Platform

The platform team shipped the new importer.

\`\`\`ts
const total = regions.reduce((sum, region) => sum + region.revenue, 0);
if (total > 0) console.log("growth");
\`\`\`

## Outlook

| Region | Revenue | Change |
| --- | --- | --- |
| Northern Europe | 1 200 000 | +12 % |
| Southern Europe | 900 000 | +4 % |
`;

const SECTIONS = ['Platform', 'Operations', 'Infrastructure', 'Governance']
  .map((title) => `## ${title}\n\n${`The ${title.toLowerCase()} chapter explains what changed and why. `.repeat(6)}\n`)
  .join('\n');

const DESKTOP_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

interface Seed {
  folderId: string;
  reportFileId: string;
  collectionShareId: string;
  documentShareId: string;
  webhookId: string;
  requestId: string;
  /** A shared workspace of the owner's: the Admin area lists it, its activity has a member filter. */
  workspaceId: string;
  urls: {
    link: string;
    password: string;
    collection: string;
    document: string;
    signIn: string;
    request: string;
    receipt: string;
  };
}

interface Shot {
  file: string;
  page: string;
  language: string;
  size: string;
  violations: number;
}

describe('every page, in two languages, on a desktop and a phone', () => {
  let app: RunningApp;
  let browser: Browser;
  let smtp: SmtpReceiver;
  let owner: TestUser;
  let seed: Seed;
  const shots: Shot[] = [];

  beforeAll(async () => {
    smtp = await new SmtpReceiver().start();
    [app, browser] = await Promise.all([
      startApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'noreply@sharedown.test' } }),
      launchChromium(),
      rm(SCREENS, { recursive: true, force: true }).then(() => mkdir(SCREENS, { recursive: true })),
    ]);
    owner = await signUpByCode(app, smtp, 'maria.kelle@example.com');
    seed = await seedWorkspace(app, owner);
    await readCollection(browser, owner, seed);
  });

  afterAll(async () => {
    await writeIndex(shots);
    await browser?.close();
    await app?.cleanup();
    await smtp?.stop();
  });

  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      it(`passes on every page in ${language.code} at ${size.width} px`, { timeout: 240_000 }, async () => {
        const problems: string[] = [];
        const signedIn = await newContext(browser, language.locale, size, app, owner.cookie);
        const anonymous = await newContext(browser, language.locale, size, app);
        try {
          const check = async (page: Page, name: string) => {
            const file = `${language.code}-${size.name}-${name}.png`;
            const violations = await axeViolations(page);
            for (const violation of violations)
              for (const node of violation.nodes)
                problems.push(
                  `${name}: ${violation.id} at ${node.target.join(' ')} — ${node.summary.split('\n').slice(0, 2).join(' ')}`,
                );
            if (size.name === 'phone') {
              const overflow = await sidewaysOverflow(page);
              if (overflow > 0) problems.push(`${name}: scrolls sideways by ${overflow} px`);
              for (const broken of await wordsBrokenInCells(page))
                problems.push(`${name}: cell breaks “${broken.word}” in “${broken.cell}”`);
            }
            await page.screenshot({ path: join(SCREENS, file), fullPage: true });
            shots.push({ file, page: name, language: language.code, size: size.name, violations: violations.length });
          };

          const consolePage = await signedIn.newPage();
          for (const [name, path] of consolePaths(seed, owner)) {
            await consolePage.goto(`${app.baseUrl}${path}`);
            await settled(consolePage, name);
            await check(consolePage, name);
          }
          // States that only a click reaches: the link's settings being edited, a new link, a file being moved.
          await consolePage.goto(`${app.baseUrl}/shares/${seed.documentShareId}`);
          await consolePage.click('[data-test="share-edit-open"]');
          await consolePage.waitForSelector('[data-test="share-edit"]');
          await check(consolePage, 'share-edit');
          // A new link: the focus moves to the panel that holds it, so keyboards and screen readers follow.
          await consolePage.goto(`${app.baseUrl}/shares/new?fileId=${seed.reportFileId}`);
          await consolePage.click('[data-test="share-submit"]');
          await consolePage.waitForSelector('[data-test="share-created"]');
          await consolePage.waitForFunction(() => document.activeElement?.getAttribute('data-test') === 'share-created');
          await check(consolePage, 'share-created');
          await consolePage.goto(`${app.baseUrl}/files`);
          await consolePage
            .locator('tr[data-file-name="quarterly-report.md"] button[aria-label*="quarterly-report.md"]')
            .first()
            .click();
          await consolePage.waitForSelector('dialog[open] [data-test="move-target"]');
          await check(consolePage, 'move-dialog');
          // An administrator setting a shared workspace's quota.
          await consolePage.goto(`${app.baseUrl}/admin/workspaces`);
          await consolePage.click(`tr[data-workspace-id="${seed.workspaceId}"] [data-test="admin-workspace-quota"]`);
          await consolePage.waitForSelector('dialog[open] [data-test="admin-workspace-quota-form"]');
          await check(consolePage, 'admin-workspace-quota');
          // The activity of a shared workspace: who acted, and a filter by member. The tab acts there
          // until its choice is cleared, so the pages after this one are the personal workspace's again.
          await consolePage.evaluate((id) => sessionStorage.setItem('sharedown.workspace', id), seed.workspaceId);
          await consolePage.goto(`${app.baseUrl}/activity`);
          await consolePage.waitForSelector('[data-test="activity-actor-filter"] option:nth-child(2)', { state: 'attached' });
          await settled(consolePage, 'activity-workspace');
          await check(consolePage, 'activity-workspace');
          await consolePage.evaluate(() => sessionStorage.removeItem('sharedown.workspace'));

          const guest = await anonymous.newPage();
          for (const [name, path] of [
            ['sign-in', '/login'],
            ['register', '/register'],
            ['not-found', '/nowhere'],
          ] as const) {
            await guest.goto(`${app.baseUrl}${path}`);
            await settled(guest, name);
            await check(guest, name);
          }
          await walkVisitorPages(guest, seed, check);
        } finally {
          await Promise.all([signedIn.close(), anonymous.close()]);
        }
        expect(problems).toEqual([]);
      });
    }
  }
});

/** With e-mail on, an account is made by a mailed code: the first one administers the instance. */
async function signUpByCode(app: RunningApp, smtp: SmtpReceiver, email: string): Promise<TestUser> {
  const anonymous = createSharedownClient({ baseUrl: app.baseUrl });
  await unwrap(anonymous.POST('/api/auth/email-code', { body: { email } }));
  const code = SmtpReceiver.codeOf(await smtp.waitFor(email, (mail) => mail.subject.includes('Sign-in code')));
  const verified = await anonymous.POST('/api/auth/email-code/verify', { body: { email, code } });
  const cookie = sessionCookieOf(verified.response);
  const consoleClient = createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie } });
  const { user } = await unwrap(consoleClient.GET('/api/auth/session'));
  const created = await unwrap(consoleClient.POST('/api/tokens', { body: { name: 'walk', rateLimitPerMinute: 600 } }));
  return {
    email,
    password: '',
    cookie,
    userId: user.id,
    segment: user.segment,
    token: created.plaintext,
    tokenId: created.token.id,
    api: createSharedownClient({ baseUrl: app.baseUrl, token: created.plaintext }),
    console: consoleClient,
  };
}

function newContext(
  browser: Browser,
  locale: string,
  size: { width: number; height: number },
  app: RunningApp,
  cookie?: string,
): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: size.width, height: size.height }, locale }).then(async (context) => {
    if (cookie) {
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: app.baseUrl }]);
    }
    return context;
  });
}

/** The console's routes, each with the record it shows. */
function consolePaths(seed: Seed, owner: TestUser): Array<[string, string]> {
  return [
    ['files', '/files'],
    ['folder', `/files?folder=${seed.folderId}`],
    ['file-detail', `/files/${seed.reportFileId}`],
    ['trash', '/trash'],
    ['shares', '/shares'],
    ['share-create', `/shares/new?fileId=${seed.reportFileId}`],
    ['share-create-folder', `/shares/new?folderId=${seed.folderId}`],
    ['share-detail', `/shares/${seed.documentShareId}`],
    ['collection-detail', `/shares/${seed.collectionShareId}`],
    ['share-analytics', `/shares/${seed.documentShareId}/analytics`],
    ['collection-analytics', `/shares/${seed.collectionShareId}/analytics`],
    ['validate', '/validate'],
    ['tokens', '/tokens'],
    ['webhooks', '/webhooks'],
    ['webhook-detail', `/webhooks/${seed.webhookId}`],
    ['activity', '/activity'],
    ['account', '/account'],
    ['admin', '/admin'],
    ['admin-users', '/admin/users'],
    ['admin-workspaces', '/admin/workspaces'],
    ['admin-user', `/admin/users/${owner.userId}`],
    ['admin-audit', '/admin/audit'],
    ['admin-reports', '/admin/reports'],
    ['requests', '/requests'],
    ['request-detail', `/requests/${seed.requestId}`],
  ];
}

/** The visitor's pages in the order a reader meets them. */
async function walkVisitorPages(page: Page, seed: Seed, check: (page: Page, name: string) => Promise<void>): Promise<void> {
  await page.goto(seed.urls.link);
  await check(page, 'visitor-link');
  await page.goto(seed.urls.password);
  await check(page, 'visitor-password');
  await page.goto(seed.urls.signIn);
  await check(page, 'visitor-sign-in');
  await page.goto(
    `${new URL(seed.urls.signIn).origin}/s/_email-code?next=${encodeURIComponent(new URL(seed.urls.signIn).pathname)}`,
  );
  await check(page, 'visitor-email-code');
  await page.fill('input[name="email"]', 'reader@example.com');
  await Promise.all([page.waitForURL('**/s/_email-code**'), page.click('button[type="submit"]')]);
  await page.waitForSelector('input[name="code"]');
  await check(page, 'visitor-email-code-entry');
  await page.goto(seed.urls.collection);
  await check(page, 'visitor-agreement');
  await page.check('input[name="accept"]');
  await page.fill('input[name="name"]', 'Ada Lovelace');
  await Promise.all([page.waitForSelector('.sd-collection, table'), page.click('button[type="submit"]')]);
  await check(page, 'visitor-collection');
  await Promise.all([page.waitForURL('**/d/**'), page.locator('main a[href*="/d/"]').first().click()]);
  await check(page, 'visitor-collection-document');
  await page.goto(seed.urls.document);
  await check(page, 'visitor-document');
  await page.goto(seed.urls.request);
  await check(page, 'visitor-request');
  await page.goto(seed.urls.receipt);
  await check(page, 'visitor-request-receipt');
}

/** Waits until the console page has its heading and no loading indicator is left. */
async function settled(page: Page, name: string): Promise<void> {
  await page
    .waitForFunction(
      () => document.querySelector('h1') !== null && document.querySelector('.loading, [aria-busy="true"]') === null,
      undefined,
      { timeout: 15_000 },
    )
    .catch((error: Error) => {
      throw new Error(`${name} did not settle: ${error.message}`);
    });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** A workspace with something on every page: folders, documents, links of every kind, a webhook, the trash. */
async function seedWorkspace(app: RunningApp, owner: TestUser): Promise<Seed> {
  const { folder } = await unwrap(owner.api.POST('/api/v1/folders', { body: { name: 'data-room' } }));
  await unwrap(owner.api.POST('/api/v1/folders', { body: { name: 'Board papers' } }));
  const report = await upload(app, owner, 'quarterly-report.md', REPORT);
  await upload(app, owner, 'landing-page.html', '<!doctype html><title>Landing</title><h1>Welcome</h1><p>Hello.</p>');
  const discarded = await upload(app, owner, 'old-draft.txt', 'An old draft.');
  await unwrap(owner.api.DELETE('/api/v1/files/{id}', { params: { path: { id: discarded.fileId } } }));
  for (const [name, content] of [
    ['index.txt', 'The index of the data room.\n'],
    ['Platform overview.md', `# Platform overview\n\n${SECTIONS}`],
  ]) {
    const form = new FormData();
    form.append('file', new Blob([content!], { type: 'text/plain' }), name);
    form.append('folderId', folder.id);
    const response = await fetch(`${app.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}` },
      body: form,
    });
    const { file } = (await response.json()) as { file: { id: string } };
    await waitForScan(owner, file.id, 'CLEAN');
  }
  const link = await share(owner, report.fileId, { oneTime: true });
  const password = await share(owner, report.fileId, { password: 'open sesame' });
  const signIn = await share(owner, report.fileId, { requireLogin: true });
  const documentShare = await share(owner, report.fileId, { maxVisits: 50, expiresInDays: 7, slug: 'maria-kelle-report' });
  const collection = await unwrap(
    owner.api.POST('/api/v1/shares', {
      body: {
        folderId: folder.id,
        agreement: { text: '## Confidential\n\nKeep the data room to yourself.', requireName: true },
        watermarkEnabled: true,
        watermarkText: '{name} · {date}',
      },
    }),
  );
  const { workspace } = await unwrap(
    owner.console.POST('/api/workspaces', { body: { name: 'Audit committee', segment: 'audit-committee' } }),
  );
  const webhook = await unwrap(
    owner.console.POST('/api/webhooks', { body: { url: 'https://hooks.example.com/sharedown', events: ['share_visited'] } }),
  );
  // A document request with one upload: its public page, the uploader's receipt and the owner's review.
  const request = await unwrap(
    owner.api.POST('/api/v1/requests', {
      body: { title: 'Signed policies for the audit', instructions: 'Please send the **signed** copy.', maxUploads: 3 },
    }),
  );
  const answered = new FormData();
  answered.append('name', 'Olga Auditee');
  answered.append('message', 'The signed copy.');
  answered.append('file', new Blob(['# Policy\n\nSigned.\n'], { type: 'text/markdown' }), 'policy.md');
  const uploaded = await fetch(request.url, { method: 'POST', body: answered, headers: { accept: 'application/json' } });
  const { receiptUrl } = (await uploaded.json()) as { receiptUrl: string };
  return {
    folderId: folder.id,
    reportFileId: report.fileId,
    collectionShareId: collection.share.id,
    documentShareId: documentShare.share.id,
    webhookId: webhook.webhook.id,
    requestId: request.request.id,
    workspaceId: workspace.id,
    urls: {
      link: link.url,
      password: password.url,
      collection: collection.url,
      document: documentShare.url,
      signIn: signIn.url,
      request: request.url,
      receipt: receiptUrl,
    },
  };
}

/** A reader accepts the collection's agreement and reads both documents to the end, so analytics have figures. */
async function readCollection(browser: Browser, owner: TestUser, seed: Seed): Promise<void> {
  // A person's browser, not a headless one: the visit counts among people, as a reader's would.
  const context = await browser.newContext({ viewport: { width: 900, height: 500 }, locale: 'en-US', userAgent: DESKTOP_SAFARI });
  const page = await context.newPage();
  await page.goto(seed.urls.collection);
  await page.check('input[name="accept"]');
  await page.fill('input[name="name"]', 'Grace Hopper');
  await Promise.all([page.waitForSelector('main a[href*="/d/"]'), page.click('button[type="submit"]')]);
  const documents = await page
    .locator('main a[href*="/d/"]')
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  for (const href of documents) {
    await page.goto(href);
    await page.mouse.wheel(0, 100_000);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    // Leaving the page sends the engagement beacon for this document.
    await page.goto('about:blank');
  }
  await context.close();
  // The visit log is written in batches: wait until both documents show as read to the end.
  await vi.waitFor(
    async () => {
      const { visits } = await unwrap(
        owner.console.GET('/api/console/shares/{id}/visit-log', { params: { path: { id: seed.collectionShareId } } }),
      );
      const completed = visits.flatMap((visit) => visit.documents).filter((read) => read.completed);
      if (completed.length < documents.length) throw new Error(`${completed.length} of ${documents.length} documents read`);
    },
    { timeout: 20_000, interval: 250 },
  );
}

async function writeIndex(shots: Shot[]): Promise<void> {
  const rows = shots
    .slice()
    .sort((a, b) => a.file.localeCompare(b.file))
    .map((shot) => `| ${shot.page} | ${shot.language} | ${shot.size} | ${shot.violations} | [${shot.file}](${shot.file}) |`);
  const index = [
    '# Screens of the accessibility walk',
    '',
    '| Page | Language | Size | Violations | Screenshot |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
  await writeFile(join(SCREENS, 'index.md'), index.join('\n'));
}
