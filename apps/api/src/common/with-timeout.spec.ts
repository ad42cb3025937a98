import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimeoutError, withTimeout } from './with-timeout.js';

describe(withTimeout.name, () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('settles as the work does when it is in time, and leaves no timer behind', async () => {
    await expect(withTimeout(Promise.resolve('done'), 1000)).resolves.toBe('done');
    await expect(withTimeout(Promise.reject(new Error('broken')), 1000)).rejects.toThrow('broken');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with a TimeoutError once the time is up', async () => {
    const sut = withTimeout(new Promise<never>(() => undefined), 1000);
    const settled = expect(sut).rejects.toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
  });

  it('rejects with the caller’s error when one is given', async () => {
    const sut = withTimeout(new Promise<never>(() => undefined), 50, () => new RangeError('too slow'));
    const settled = expect(sut).rejects.toThrow(RangeError);
    await vi.advanceTimersByTimeAsync(50);
    await settled;
  });
});
