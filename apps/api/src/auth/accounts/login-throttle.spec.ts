import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateDecision } from '../../rate-limit/rate-limiter.js';
import { LoginThrottle } from './login-throttle.js';

/** Buckets that never refill: enough to count what the throttle takes and gives back. */
class CountingLimiter extends RateLimiter {
  readonly levels = new Map<string, number>();

  async consume(key: string, capacity: number): Promise<RateDecision> {
    const level = this.levels.get(key) ?? capacity;
    const allowed = level >= 1;
    this.levels.set(key, allowed ? level - 1 : level);
    return { allowed, remaining: allowed ? level - 1 : 0, retryAfterSeconds: allowed ? 0 : 90 };
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

describe(LoginThrottle.name, () => {
  it('takes exactly ten attempts per account and client out of a parallel wave', async () => {
    const sut = new LoginThrottle(new CountingLimiter());
    const results = await Promise.all(Array.from({ length: 40 }, () => outcome(sut.take('owner@example.com', '198.51.100.7'))));
    expect(results.filter((r) => r === 'taken')).toHaveLength(10);
    expect(results.filter((r) => r === 'RATE_LIMITED')).toHaveLength(30);
  });

  it("leaves the owner's own client alone when a stranger has used up theirs", async () => {
    const sut = new LoginThrottle(new CountingLimiter());
    for (let i = 0; i < 10; i++) await sut.take('Owner@Example.com', '203.0.113.5');
    await expect(sut.take('owner@example.com', '203.0.113.5')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: 90,
    });
    await expect(sut.take('owner@example.com', '198.51.100.7')).resolves.toBeTypeOf('function');
  });

  it('counts a successful attempt not at all once it is given back', async () => {
    const limiter = new CountingLimiter();
    const sut = new LoginThrottle(limiter);
    for (let i = 0; i < 25; i++) await (await sut.take('owner@example.com', '198.51.100.7'))();
    await expect(sut.take('owner@example.com', '198.51.100.7')).resolves.toBeTypeOf('function');
  });

  it('stops one client after thirty failures across accounts, and one /64 counts as one client', async () => {
    const sut = new LoginThrottle(new CountingLimiter());
    for (let i = 0; i < 30; i++) await sut.take(`user${i}@example.com`, `2001:db8:1:2::${i.toString(16)}`);
    await expect(sut.take('another@example.com', '2001:db8:1:2:ffff::1')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(sut.take('another@example.com', '2001:db8:1:3::1')).resolves.toBeTypeOf('function');
  });

  it('gives back what a refused attempt took from buckets that still had room', async () => {
    const limiter = new CountingLimiter();
    const sut = new LoginThrottle(limiter);
    for (let i = 0; i < 30; i++) await sut.take(`user${i}@example.com`, '198.51.100.7');
    await expect(sut.take('owner@example.com', '198.51.100.7')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(limiter.levels.get('login:pair:owner@example.com:198.51.100.7')).toBe(10);
    expect(limiter.levels.get('login:account:owner@example.com')).toBe(100);
  });
});
