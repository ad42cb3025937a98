import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateDecision } from '../../rate-limit/rate-limiter.js';
import { TwoFactorThrottle } from './two-factor-throttle.js';

/** Buckets that never refill: enough to count what the throttle takes and gives back. */
class CountingLimiter extends RateLimiter {
  readonly levels = new Map<string, number>();

  async consume(key: string, capacity: number): Promise<RateDecision> {
    const level = this.levels.get(key) ?? capacity;
    const allowed = level >= 1;
    this.levels.set(key, allowed ? level - 1 : level);
    return { allowed, remaining: allowed ? level - 1 : 0, retryAfterSeconds: allowed ? 0 : 120 };
  }

  async refund(key: string, capacity: number): Promise<void> {
    this.levels.set(key, Math.min(capacity, (this.levels.get(key) ?? capacity) + 1));
  }

  async sweep(): Promise<number> {
    return 0;
  }
}

async function outcome(attempt: Promise<unknown>): Promise<'taken' | 'RATE_LIMITED'> {
  try {
    await attempt;
    return 'taken';
  } catch (error) {
    return (error as { code: 'RATE_LIMITED' }).code;
  }
}

describe(TwoFactorThrottle.name, () => {
  it('takes exactly five attempts per account and client out of a parallel wave', async () => {
    const sut = new TwoFactorThrottle(new CountingLimiter());
    const results = await Promise.all(Array.from({ length: 40 }, () => outcome(sut.take('u1', '198.51.100.7', 'sign-in'))));
    expect(results.filter((r) => r === 'taken')).toHaveLength(5);
    expect(results.filter((r) => r === 'RATE_LIMITED')).toHaveLength(35);
  });

  it('says when to come back', async () => {
    const sut = new TwoFactorThrottle(new CountingLimiter());
    for (let i = 0; i < 5; i++) await sut.take('u1', '198.51.100.7', 'sign-in');
    await expect(sut.take('u1', '198.51.100.7', 'sign-in')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: 120,
    });
  });

  it("keeps the owner's client, and the account page, open when a stranger has used up theirs", async () => {
    const sut = new TwoFactorThrottle(new CountingLimiter());
    for (let i = 0; i < 5; i++) await sut.take('u1', '203.0.113.5', 'sign-in');
    await expect(sut.take('u1', '203.0.113.5', 'sign-in')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(sut.take('u1', '198.51.100.7', 'sign-in')).resolves.toBeTypeOf('function');
    await expect(sut.take('u1', '203.0.113.5', 'manage')).resolves.toBeTypeOf('function');
  });

  it('stops guessers spread over many networks at thirty per account', async () => {
    const sut = new TwoFactorThrottle(new CountingLimiter());
    for (let i = 0; i < 30; i++) await sut.take('u1', `198.51.${i}.7`, 'sign-in');
    await expect(sut.take('u1', '192.0.2.1', 'sign-in')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(sut.take('u2', '192.0.2.1', 'sign-in')).resolves.toBeTypeOf('function');
  });

  it('counts a right code not at all once it is given back', async () => {
    const sut = new TwoFactorThrottle(new CountingLimiter());
    for (let i = 0; i < 20; i++) await (await sut.take('u1', '198.51.100.7', 'sign-in'))();
    await expect(sut.take('u1', '198.51.100.7', 'sign-in')).resolves.toBeTypeOf('function');
  });
});
