import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueService } from '../queue/queue.service.js';
import { ScanQueue } from './scan-queue.js';

/** A queue whose backend is down for the first `failures` calls, then up. */
function fakeQueues(failures: number) {
  const added: string[][] = [];
  let calls = 0;
  const queue = {
    addBulk: vi.fn(async (jobs: Array<{ data: { versionId: string } }>) => {
      calls += 1;
      if (calls <= failures) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      added.push(jobs.map((job) => job.data.versionId));
      return [];
    }),
  };
  return { queues: { queue: () => queue } as unknown as QueueService, added };
}

describe(ScanQueue.name, () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers an upload whose job cannot be queued, and queues the job once the backend is back', async () => {
    const { queues, added } = fakeQueues(3);
    const sut = new ScanQueue(queues);

    await expect(sut.enqueueSafely(['v1'])).resolves.toBeUndefined();
    await sut.enqueueSafely(['v2']);
    expect(added).toEqual([]);

    await vi.advanceTimersByTimeAsync(2_000);
    expect(added).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(added).toEqual([['v1', 'v2']]);

    await vi.advanceTimersByTimeAsync(10_000);
    expect(added).toEqual([['v1', 'v2']]);
    sut.onApplicationShutdown();
  });

  it('does not hold an upload longer than its bound when the queue never answers', async () => {
    const sut = new ScanQueue({ queue: () => ({ addBulk: () => new Promise(() => undefined) }) } as unknown as QueueService);
    const answered = sut.enqueueSafely(['v1']);
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(answered).resolves.toBeUndefined();
    sut.onApplicationShutdown();
  });
});
