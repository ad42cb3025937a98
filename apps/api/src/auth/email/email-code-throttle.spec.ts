import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateDecision } from '../../rate-limit/rate-limiter.js';
import { EmailCodeThrottle } from './email-code-throttle.js';

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

describe(EmailCodeThrottle.name, () => {
  it('mails one address five times an hour, from whichever clients ask', async () => {
    const sut = new EmailCodeThrottle(new CountingLimiter());
    for (let i = 0; i < 5; i++) await sut.takeSend('Ann@Example.com', `198.51.100.${i}`);
    await expect(sut.takeSend(' ann@example.com', '203.0.113.9')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: 120,
    });
    await expect(sut.takeSend('bob@example.com', '203.0.113.9')).resolves.toBeUndefined();
  });

  it('lets one client ask for twenty mails an hour over all addresses, one /64 counting once', async () => {
    const sut = new EmailCodeThrottle(new CountingLimiter());
    for (let i = 0; i < 20; i++) await sut.takeSend(`user${i}@example.com`, `2001:db8:1:2::${i.toString(16)}`);
    await expect(sut.takeSend('other@example.com', '2001:db8:1:2:ffff::1')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(sut.takeSend('other@example.com', '2001:db8:1:3::1')).resolves.toBeUndefined();
  });

  it('does not count a refused mail against the address', async () => {
    const limiter = new CountingLimiter();
    const sut = new EmailCodeThrottle(limiter);
    for (let i = 0; i < 20; i++) await sut.takeSend(`user${i}@example.com`, '198.51.100.7');
    await expect(sut.takeSend('ann@example.com', '198.51.100.7')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(limiter.levels.get('email-send:address:ann@example.com')).toBe(5);
  });

  it('takes exactly ten code tries per address and client out of a parallel wave', async () => {
    const sut = new EmailCodeThrottle(new CountingLimiter());
    const results = await Promise.all(
      Array.from({ length: 40 }, () => outcome(sut.takeVerify('ann@example.com', '198.51.100.7'))),
    );
    expect(results.filter((r) => r === 'taken')).toHaveLength(10);
    expect(results.filter((r) => r === 'RATE_LIMITED')).toHaveLength(30);
  });

  it('stops guesses at one address from everywhere after thirty an hour', async () => {
    const sut = new EmailCodeThrottle(new CountingLimiter());
    for (let i = 0; i < 30; i++) await sut.takeVerify('ann@example.com', `198.51.${i}.1`);
    await expect(sut.takeVerify('ann@example.com', '203.0.113.1')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('gives a right code its tries back', async () => {
    const sut = new EmailCodeThrottle(new CountingLimiter());
    for (let i = 0; i < 25; i++) await (await sut.takeVerify('ann@example.com', '198.51.100.7'))();
    await expect(sut.takeVerify('ann@example.com', '198.51.100.7')).resolves.toBeTypeOf('function');
  });
});
