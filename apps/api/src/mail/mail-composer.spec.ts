import { describe, expect, it } from 'vitest';
import { Administrators } from '../auth/accounts/administrators.js';
import type { AuthUser } from '../auth/auth-context.js';
import { EmailCodesRepository } from '../auth/email/email-codes.repository.js';
import { RegistrationPolicy } from '../auth/accounts/registration-policy.js';
import { UsersRepository } from '../auth/accounts/users.repository.js';
import type { Runtime } from '../common/runtime.js';
import { loadEnv } from '../config/env.js';
import type { CodePurpose } from './mail-messages.js';
import { MailComposer } from './mail-composer.js';
import {
  NotificationsRepository,
  type FoldedVisits,
  type MailedNotification,
} from '../notifications/notifications.repository.js';
import { RateLimiter, type RateDecision } from '../rate-limit/rate-limiter.js';
import { MailQueue } from './mail-queue.js';
import {
  NotificationMailCap,
  SUMMARY_DELAY_MS,
  SUMMARY_INTERVAL_SECONDS,
  VISIT_MAILS_PER_SHARE_HOUR,
} from './notification-mail-cap.js';

const SECRET = 'a session secret of at least thirty-two characters';

function runtime(env: Record<string, string> = {}): Runtime {
  return {
    env: loadEnv({
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'noreply@example.com',
      PUBLIC_URL: 'https://share.example.com',
      ...env,
    }),
    databaseUrl: 'postgres://unused',
    sessionSecret: SECRET,
  };
}

function account(email: string, emailVerified: boolean): AuthUser & { passwordHash: string | null } {
  return {
    id: 'u1',
    email,
    segment: 'ann',
    quotaBytes: 1,
    usedBytes: 0,
    emailVerified,
    hasPassword: true,
    twoFactorEnabled: false,
    isAdmin: false,
    passwordHash: 'h',
  };
}

class FakeUsers extends UsersRepository {
  constructor(private readonly known: ReturnType<typeof account> | null) {
    super(null as never, new Administrators([], false));
  }

  override async findCredentials(): Promise<ReturnType<typeof account> | null> {
    return this.known;
  }
}

class FakeCodes extends EmailCodesRepository {
  readonly issued: Array<{ email: string; purpose: CodePurpose }> = [];

  constructor() {
    super(null as never, runtime());
  }

  override async issue(email: string, purpose: CodePurpose): Promise<string> {
    this.issued.push({ email, purpose });
    return '123456';
  }
}

class FakeNotifications extends NotificationsRepository {
  readonly folded = new Set<string>();
  readonly summarized: string[] = [];

  constructor(private readonly stored: Map<string, MailedNotification>) {
    super(null as never);
  }

  override async forMail(id: string): Promise<MailedNotification | null> {
    return this.stored.get(id) ?? null;
  }

  override async foldMail(id: string): Promise<boolean> {
    if (this.folded.has(id)) return false;
    this.folded.add(id);
    return true;
  }

  override async foldedVisits(shareId: string): Promise<FoldedVisits | null> {
    const ids = [...this.folded].filter((id) => !this.summarized.includes(id));
    if (ids.length === 0) return null;
    const at = new Date('2026-11-26T09:00:00Z');
    return { email: 'owner@example.com', fileName: 'plan.md', shareId, ids, first: at, last: at };
  }

  override async markSummarized(ids: readonly string[]): Promise<void> {
    this.summarized.push(...ids);
  }
}

/** Buckets that only count: `capacity` takes per key, never refilled. */
class CountingLimiter extends RateLimiter {
  readonly taken = new Map<string, number>();

  async consume(key: string, capacity: number): Promise<RateDecision> {
    const taken = this.taken.get(key) ?? 0;
    if (taken >= capacity) return { allowed: false, remaining: 0, retryAfterSeconds: 360 };
    this.taken.set(key, taken + 1);
    return { allowed: true, remaining: capacity - taken - 1, retryAfterSeconds: 0 };
  }

  async refund(key: string): Promise<void> {
    this.taken.set(key, Math.max(0, (this.taken.get(key) ?? 0) - 1));
  }

  async sweep(): Promise<number> {
    return 0;
  }
}

class FakeMailQueue extends MailQueue {
  readonly summaries: string[] = [];

  constructor() {
    super(null as never, runtime());
  }

  readonly delays: number[] = [];

  override async summaryPending(shareId: string): Promise<boolean> {
    return this.summaries.includes(shareId);
  }

  override async scheduleSummary(shareId: string, delayMs: number): Promise<void> {
    this.summaries.push(shareId);
    this.delays.push(delayMs);
  }
}

function setup(
  known: ReturnType<typeof account> | null,
  env: Record<string, string> = {},
  notifications = new Map<string, MailedNotification>(),
) {
  const codes = new FakeCodes();
  // No mode chosen by an administrator: ALLOW_REGISTRATION decides.
  const registration = new RegistrationPolicy({ registrationMode: async () => null } as never, runtime(env));
  const repository = new FakeNotifications(notifications);
  const queue = new FakeMailQueue();
  const cap = new NotificationMailCap(new CountingLimiter());
  return {
    sut: new MailComposer(new FakeUsers(known), codes, repository, runtime(env), registration, cap, queue),
    codes,
    repository,
    queue,
  };
}

describe(MailComposer.name, () => {
  it("mails an existing account's sign-in code to the address it registered with", async () => {
    const { sut, codes } = setup(account('Ann@Example.com', true));
    const mail = await sut.compose({ kind: 'code', purpose: 'sign-in', email: 'ann@example.com' });
    expect(mail?.to).toBe('Ann@Example.com');
    expect(mail?.message.text).toContain('123456');
    expect(codes.issued).toEqual([{ email: 'Ann@Example.com', purpose: 'sign-in' }]);
  });

  it('mails a sign-in code to an unknown address only where registration is open', async () => {
    expect((await setup(null).sut.compose({ kind: 'code', purpose: 'sign-in', email: ' new@example.com ' }))?.to).toBe(
      'new@example.com',
    );
    const closed = setup(null, { ALLOW_REGISTRATION: 'false' });
    expect(await closed.sut.compose({ kind: 'code', purpose: 'sign-in', email: 'new@example.com' })).toBeNull();
    expect(closed.codes.issued).toEqual([]);
  });

  it('sends a verification code only to an account whose address is not proven yet', async () => {
    expect(
      await setup(account('ann@example.com', true)).sut.compose({ kind: 'code', purpose: 'verify', email: 'ann@example.com' }),
    ).toBeNull();
    expect(await setup(null).sut.compose({ kind: 'code', purpose: 'verify', email: 'ann@example.com' })).toBeNull();
    const mail = await setup(account('ann@example.com', false)).sut.compose({
      kind: 'code',
      purpose: 'verify',
      email: 'ann@example.com',
    });
    expect(mail?.message.subject).toContain('Verify');
  });

  it('sends a reset code only to an existing account, and only where passwords are used', async () => {
    expect(await setup(null).sut.compose({ kind: 'code', purpose: 'reset', email: 'ann@example.com' })).toBeNull();
    const off = setup(account('ann@example.com', true), { PASSWORD_LOGIN: 'false' });
    expect(await off.sut.compose({ kind: 'code', purpose: 'reset', email: 'ann@example.com' })).toBeNull();
    expect(
      (await setup(account('ann@example.com', true)).sut.compose({ kind: 'code', purpose: 'reset', email: 'ann@example.com' }))
        ?.to,
    ).toBe('ann@example.com');
  });

  it('tells only an existing owner about a registration attempt, without issuing a code', async () => {
    expect(await setup(null).sut.compose({ kind: 'registration-attempt', email: 'ann@example.com' })).toBeNull();
    const { sut, codes } = setup(account('ann@example.com', true));
    const mail = await sut.compose({ kind: 'registration-attempt', email: 'ann@example.com' });
    expect(mail?.message.subject).toContain('Registration attempt');
    expect(codes.issued).toEqual([]);
  });

  it("mails a notification to its owner's proven address, naming the file and linking to the share", async () => {
    const stored = new Map<string, MailedNotification>([
      [
        'n1',
        {
          email: 'owner@example.com',
          userId: 'u1',
          notification: {
            id: 'n1',
            kind: 'first_visit',
            shareId: 's1',
            fileName: 'plan <b>.md',
            createdAt: '2026-11-26T09:00:00.000Z',
            readAt: null,
            data: {
              visitCount: 1,
              ipPrefix: '203.0.113.0/24',
              referer: 'https://chat.example/',
              browser: 'Chrome',
              device: 'desktop',
            },
          },
        },
      ],
    ]);
    const { sut, codes } = setup(null, {}, stored);
    const mail = await sut.compose({ kind: 'notification', id: 'n1' });
    expect(mail?.to).toBe('owner@example.com');
    expect(mail?.message.subject).toContain('First visit: plan <b>.md');
    expect(mail?.message.text).toContain('203.0.113.0/24');
    expect(mail?.message.text).toContain('https://share.example.com/shares/s1');
    expect(mail?.message.html).toContain('plan &lt;b&gt;.md');
    expect(codes.issued).toEqual([]);
  });

  it("leaves out a referrer that is the service's own page: it says nothing of where the visitor came from", async () => {
    const notification = (referer: string): MailedNotification => ({
      email: 'owner@example.com',
      userId: 'u1',
      notification: {
        id: 'n2',
        kind: 'visit',
        shareId: 's1',
        fileName: 'plan.md',
        createdAt: '2026-11-26T09:00:00.000Z',
        readAt: null,
        data: { visitCount: 2, ipPrefix: '203.0.113.0/24', referer },
      },
    });
    const own = await setup(null, {}, new Map([['n2', notification('https://share.example.com/s/alice/tok123')]])).sut.compose({
      kind: 'notification',
      id: 'n2',
    });
    expect(own?.message.text).not.toContain('https://share.example.com/s/alice');
    expect(own?.message.text).not.toContain('Referrer');
    const foreign = await setup(null, {}, new Map([['n2', notification('https://chat.example/room')]])).sut.compose({
      kind: 'notification',
      id: 'n2',
    });
    expect(foreign?.message.text).toContain('Referrer: https://chat.example/room');
  });

  it('sends nothing for a notification that is gone or whose owner has no proven address', async () => {
    const { sut } = setup(null);
    expect(await sut.compose({ kind: 'notification', id: 'missing' })).toBeNull();
  });

  it('mails each visit of an `every` share up to the hourly cap, then folds the rest into one summary', async () => {
    const visits = Array.from({ length: 14 }, (_, index): [string, MailedNotification] => [
      `v${index}`,
      {
        email: 'owner@example.com',
        userId: 'u1',
        notification: {
          id: `v${index}`,
          kind: 'visit',
          shareId: 's1',
          fileName: 'plan.md',
          createdAt: '2026-11-26T09:00:00.000Z',
          readAt: null,
          data: { visitCount: index + 1 },
        },
      },
    ]);
    const { sut, repository, queue } = setup(null, {}, new Map(visits));
    const mails = [];
    for (const [id] of visits) mails.push(await sut.compose({ kind: 'notification', id }));
    expect(mails.filter(Boolean)).toHaveLength(VISIT_MAILS_PER_SHARE_HOUR);
    expect([...repository.folded]).toEqual(['v10', 'v11', 'v12', 'v13']);
    // One summary for the burst, soon after its first folded visit.
    expect(queue.summaries).toEqual(['s1']);
    expect(queue.delays).toEqual([SUMMARY_DELAY_MS]);
    // A retried job of a folded visit folds nothing twice.
    expect(await sut.compose({ kind: 'notification', id: 'v13' })).toBeNull();
    expect(queue.summaries).toHaveLength(1);

    const summary = await sut.compose({ kind: 'notification-summary', shareId: 's1' });
    expect(summary?.to).toBe('owner@example.com');
    expect(summary?.message.subject).toContain('4 more visits: plan.md');
    await summary?.sent?.();
    expect(repository.summarized).toEqual(['v10', 'v11', 'v12', 'v13']);
    expect(await sut.compose({ kind: 'notification-summary', shareId: 's1' })).toBeNull();
  });

  it("spaces a share's summaries: the next one waits until the interval since the last has passed", async () => {
    const cap = new NotificationMailCap(new CountingLimiter());
    expect(await cap.summaryDelayMs('s1')).toBe(SUMMARY_DELAY_MS);
    // The counting limiter answers 360 s to wait once a bucket is empty.
    expect(await cap.summaryDelayMs('s1')).toBe(360_000);
    expect(await cap.summaryDelayMs('s2')).toBe(SUMMARY_DELAY_MS);
    expect(SUMMARY_INTERVAL_SECONDS).toBeGreaterThan(SUMMARY_DELAY_MS / 1000);
  });
});
