import { AuditLog } from '../audit/audit-log.js';
import { AuditRepository } from '../audit/audit.repository.js';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../auth/auth-context.js';
import { SessionsRepository } from '../auth/sessions/sessions.repository.js';
import { SESSION_COOKIE, SessionsService } from '../auth/sessions/sessions.service.js';
import { UsersRepository } from '../auth/accounts/users.repository.js';
import { administratorsProvider } from '../auth/accounts/administrators.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { loadEnv } from '../config/env.js';
import { createTestDatabase, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import { FilesRepository } from '../files/files.repository.js';
import { FilesService } from '../files/files.service.js';
import { decodeDocument } from '../files/upload-reader.js';
import type { QueueService } from '../queue/queue.service.js';
import { PostgresRateLimiter } from '../rate-limit/postgres-rate-limiter.js';
import { RateBucketsRepository } from '../rate-limit/rate-buckets.repository.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { ScanQueue } from '../scan/scan-queue.js';
import type { ShareInputDto } from '../shares/share.dto.js';
import { SharesRepository } from '../shares/shares.repository.js';
import { SharesService } from '../shares/shares.service.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import { AgreementAcceptancesRepository } from './gate/agreement-acceptances.repository.js';
import { CollectionPasses } from './collections/collection-passes.js';
import { CollectionRepository } from './collections/collection.repository.js';
import { DocumentCache } from './documents/document-cache.js';
import { FrameAdmissions } from './visit-log/frame-admissions.js';
import { VIEWER_GATE_PROVIDERS } from './gate/gate.js';
import { ChangeFeed } from '../database/change-feed.js';
import { ShareViewRepository } from './share-view/share-view.repository.js';
import type { ViewResult } from './pages/view-result.js';
import type { ViewerRequest } from './visitor/viewer-answer.js';
import { ViewerIdentity } from './visitor/viewer-identity.js';
import { ViewerService } from './viewer.service.js';
import { ShareGateCache } from './gate/share-gate-cache.js';
import { VisitAdmissions } from './visit-log/visit-admissions.js';
import { VisitLog } from './visit-log/visit-log.js';
import { MailQueue } from '../mail/mail-queue.js';
import { VisitLogRepository } from './visit-log/visit-log.repository.js';

const ORIGIN = 'https://share.example';
const runtime: Runtime = { env: loadEnv({ PUBLIC_URL: ORIGIN }), databaseUrl: 'unused', sessionSecret: 's'.repeat(32) };
const noScans = { queue: () => ({ addBulk: async () => [] }) } as unknown as QueueService;

/** Webhook events as the viewer emits them once a page is on its way. */
class RecordingEvents {
  emitted: Array<{ event: string; data: Record<string, unknown> }> = [];
  async emit(_userId: string, event: string, data: Record<string, unknown>) {
    this.emitted.push({ event, data });
  }
}

/** One browser: its own user agent (so its own visitor key) and the cookies the viewer gave it. */
class Browser {
  readonly cookies: Record<string, string> = {};
  constructor(readonly userAgent = `Mozilla/5.0 (X11; Linux x86_64) Browser/${Math.random().toString(36).slice(2)}`) {}

  request(method: 'GET' | 'POST' | 'HEAD', form: Record<string, string> = {}): ViewerRequest {
    return {
      locale: 'zh-CN',
      method,
      path: '/s/x',
      cookies: { ...this.cookies },
      userAgent: this.userAgent,
      ip: '203.0.113.7',
      referer: undefined,
      form,
      sameOrigin: true,
      origin: ORIGIN,
    };
  }

  keep(result: ViewResult): ViewResult {
    if (result.kind !== 'not-found') for (const cookie of result.cookies) this.cookies[cookie.name] = cookie.value;
    return result;
  }
}

/** The step a view came to: `shown`, `not-found`, or where the gate stopped it. */
function stepOf(result: ViewResult): string {
  if (result.kind !== 'stopped') return result.kind;
  return result.stop.kind === 'refused' ? `refused ${result.stop.outcome}` : result.stop.kind;
}

describe(ViewerService.name, () => {
  let database: TestDatabase;
  let context: INestApplicationContext;
  let events: RecordingEvents;
  let files: FilesService;
  let shares: SharesService;
  let sessions: SessionsService;
  let owner: AuthUser;
  let sut: ViewerService;

  /** A Markdown document of the owner, scanned clean, and a link to it. */
  async function link(policy: ShareInputDto = {}, scan: 'CLEAN' | 'PENDING' = 'CLEAN') {
    const uploaded = await files.upload(owner, {
      document: decodeDocument('doc.md', Buffer.from('# Hello\n')),
      conflict: 'rename',
    });
    await database.dataSource.query('UPDATE file_versions SET scan_status = $2 WHERE id = $1', [uploaded.versionId, scan]);
    const { share } = await shares.create(owner, { fileId: uploaded.file.id, ...policy });
    return { ...share, fileId: uploaded.file.id };
  }

  const view = (browser: Browser, token: string, method: 'GET' | 'POST' | 'HEAD' = 'GET', form: Record<string, string> = {}) =>
    sut.view(browser.request(method, form), owner.segment, token).then((result) => browser.keep(result));
  const visits = async (shareId: string) => (await shares.get(owner.id, shareId)).visitCount;

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.dataSource;
    events = new RecordingEvents();
    @Module({
      providers: [
        { provide: DataSource, useValue: db },
        { provide: RUNTIME, useValue: runtime },
        administratorsProvider,
        { provide: RateLimiter, useValue: new PostgresRateLimiter(new RateBucketsRepository(db)) },
        { provide: WebhookEventsService, useValue: events },
        SessionsService,
        SessionsRepository,
        AuditLog,
        AuditRepository,
        UsersRepository,
        ShareViewRepository,
        VisitAdmissions,
        FrameAdmissions,
        ChangeFeed,
        ShareGateCache,
        VisitLogRepository,
        VisitLog,
        // Notifications are mailed only with SMTP_URL; none here.
        { provide: MailQueue, useValue: { enqueueNotifications: async () => undefined } },
        DocumentCache,
        ViewerIdentity,
        ...VIEWER_GATE_PROVIDERS,
        CollectionRepository,
        CollectionPasses,
        AgreementAcceptancesRepository,
        ViewerService,
      ],
    })
    class ViewerGateModule {}
    context = await NestFactory.createApplicationContext(ViewerGateModule, { logger: false });
    sut = context.get(ViewerService);
    sessions = context.get(SessionsService);
    files = new FilesService(db, new FilesRepository(db), new ScanQueue(noScans), new AuditLog(new AuditRepository(db)));
    shares = new SharesService(db, new SharesRepository(db), runtime, new AuditLog(new AuditRepository(db)));
  });
  afterAll(async () => {
    await context?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    owner = await createTestUser(database.dataSource);
    events.emitted = [];
  });

  it('shows a clean document, counts each view and each visitor, and emits share_visited with the counts', async () => {
    const share = await link();
    const first = new Browser();

    const shown = await view(first, share.token);
    await view(first, share.token);
    const other = await view(new Browser(), share.token);

    expect(shown.kind).toBe('shown');
    expect(shown.kind === 'shown' && shown.content.bytes.toString('utf8')).toContain('Hello</h1>');
    for (const result of [shown, other]) if (result.kind === 'shown') await result.after?.();
    expect(events.emitted.map(({ event, data }) => [event, data.visitCount, data.uniqueVisitCount])).toEqual([
      ['share_visited', 1, 1],
      ['share_visited', 3, 2],
    ]);
    expect(await visits(share.id)).toBe(3);
    // `after` settles once its visit's log row is written (the second view's `after` never ran).
    const [logged] = (await database.dataSource.query('SELECT count(*)::int AS n FROM share_visit_log WHERE share_id = $1', [
      share.id,
    ])) as Array<{ n: number }>;
    expect(logged!.n).toBe(2);
  });

  it('stops at the first policy that does not pass, counting nothing: state, then scan status, then the password', async () => {
    const revoked = await link({ password: 'sesame-12' });
    await shares.revoke(owner.id, revoked.id);
    const scanning = await link({ password: 'sesame-12' }, 'PENDING');
    const trashed = await link({ password: 'sesame-12' });
    await files.trash(owner.id, trashed.fileId);
    const locked = await link({ password: 'sesame-12' });

    const steps = [];
    for (const share of [revoked, scanning, trashed, locked]) steps.push(stepOf(await view(new Browser(), share.token)));

    expect(steps).toEqual(['refused REVOKED', 'scanning', 'refused REVOKED', 'password']);
    expect(stepOf(await view(new Browser(), 'no-such-link'))).toBe('not-found');
    for (const share of [revoked, scanning, trashed, locked]) expect(await visits(share.id)).toBe(0);
  });

  it('counts nothing for the password form or a wrong password, and admits the browser that typed the right one', async () => {
    const share = await link({ password: 'sesame-12' });
    const browser = new Browser();

    expect(await view(browser, share.token)).toMatchObject({ kind: 'stopped', stop: { kind: 'password', wrong: false } });
    expect(await view(browser, share.token, 'POST', { action: 'password', password: 'wrong-guess' })).toMatchObject({
      stop: { kind: 'password', wrong: true },
    });
    expect(await visits(share.id)).toBe(0);
    expect(stepOf(await view(browser, share.token, 'POST', { action: 'password', password: 'sesame-12' }))).toBe('back-to-link');
    expect(stepOf(await view(browser, share.token))).toBe('shown');
    expect(stepOf(await view(new Browser(), share.token))).toBe('password');
    expect(await visits(share.id)).toBe(1);
  });

  it('admits exactly maxVisits of many parallel views and refuses the rest as used up', async () => {
    const share = await link({ maxVisits: 3 });

    const results = await Promise.all(Array.from({ length: 12 }, () => view(new Browser(), share.token)));

    expect(results.map(stepOf).sort()).toEqual([...Array(9).fill('refused CONSUMED'), 'shown', 'shown', 'shown']);
    expect(await shares.get(owner.id, share.id)).toMatchObject({ visitCount: 3, consumedAt: expect.any(String) });
  });

  it('opens a one-time link only after the reveal click, and then never again', async () => {
    const share = await link({ oneTime: true });
    const browser = new Browser();

    expect(stepOf(await view(browser, share.token))).toBe('reveal');
    expect(await visits(share.id)).toBe(0);
    expect(stepOf(await view(browser, share.token, 'POST', { action: 'reveal' }))).toBe('shown');
    expect(stepOf(await view(browser, share.token, 'POST', { action: 'reveal' }))).toBe('refused CONSUMED');
    expect(stepOf(await view(new Browser(), share.token))).toBe('refused CONSUMED');
  });

  it('lets only signed-in accounts with a proven, listed address through an allowlist', async () => {
    const listed = await createTestUser(database.dataSource, { emailVerified: true });
    const unproven = await createTestUser(database.dataSource);
    const stranger = await createTestUser(database.dataSource, { emailVerified: true });
    const share = await link({ emailAllowlist: [listed.email, unproven.email] });
    const signedIn = async (user: AuthUser) => {
      const browser = new Browser();
      browser.cookies[SESSION_COOKIE] = (await sessions.create(user.id, { method: 'password' })).cookieValue;
      return browser;
    };

    expect(stepOf(await view(new Browser(), share.token))).toBe('sign-in');
    expect(stepOf(await view(await signedIn(unproven), share.token))).toBe('unverified');
    expect(await view(await signedIn(stranger), share.token)).toMatchObject({
      stop: { kind: 'not-listed', email: stranger.email },
    });
    expect(await visits(share.id)).toBe(0);
    expect(stepOf(await view(await signedIn(listed), share.token))).toBe('shown');
    expect(await visits(share.id)).toBe(1);
  });
});
