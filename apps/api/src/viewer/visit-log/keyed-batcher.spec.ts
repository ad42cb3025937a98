import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyedBatcher } from './keyed-batcher.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe(KeyedBatcher.name, () => {
  it('sends a lone item at once and what arrives meanwhile together, in order', async () => {
    const calls: Array<[string, number[]]> = [];
    const gates: Array<ReturnType<typeof deferred<void>>> = [];
    const sut = new KeyedBatcher<number, string>(async (key, items) => {
      calls.push([key, items]);
      const gate = deferred<void>();
      gates.push(gate);
      await gate.promise;
      return items.map((item) => `${key}:${item}`);
    });
    const first = sut.submit('a', 1);
    const queued = [sut.submit('a', 2), sut.submit('a', 3)];
    const other = sut.submit('b', 9);
    expect(calls).toEqual([
      ['a', [1]],
      ['b', [9]],
    ]);
    gates[0]!.resolve();
    expect(await first).toBe('a:1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls[2]).toEqual(['a', [2, 3]]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    expect(await Promise.all([...queued, other])).toEqual(['a:2', 'a:3', 'b:9']);
  });

  it('caps a batch and keeps the rest for the next call', async () => {
    const sizes: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sut = new KeyedBatcher<number, number>(async (_key, items) => {
      sizes.push(items.length);
      if (sizes.length === 1) await held;
      return items;
    }, 3);
    const all = Array.from({ length: 8 }, (_, i) => sut.submit('k', i));
    release();
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(sizes).toEqual([1, 3, 3, 1]);
  });

  it('fails every item of a failed call and keeps serving the key', async () => {
    let fail = true;
    const sut = new KeyedBatcher<number, number>(async (_key, items) => {
      if (fail) throw new Error('database down');
      return items;
    });
    await expect(sut.submit('k', 1)).rejects.toThrow('database down');
    fail = false;
    expect(await sut.submit('k', 2)).toBe(2);
  });

  it('fails the items waiting behind a call whose error says the target is gone, without sending them', async () => {
    const calls: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sut = new KeyedBatcher<number, number>(
      async (_key, items) => {
        calls.push(items);
        if (calls.length === 1) {
          await held;
          throw new Error('gone');
        }
        return items;
      },
      256,
      (error) => (error as Error).message === 'gone',
    );
    const all = [1, 2, 3].map((item) => sut.submit('k', item).catch((error: Error) => error.message));
    release();
    expect(await Promise.all(all)).toEqual(['gone', 'gone', 'gone']);
    expect(calls).toEqual([[1]]);
    expect(await sut.submit('k', 4)).toBe(4);
  });

  it('sends the waiting items after any other failure', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const sut = new KeyedBatcher<number, number>(
      async (_key, items) => {
        if (first) {
          first = false;
          await held;
          throw new Error('one bad batch');
        }
        return items;
      },
      256,
      (error) => (error as Error).message === 'gone',
    );
    const failed = sut.submit('k', 1);
    const waiting = sut.submit('k', 2);
    release();
    await expect(failed).rejects.toThrow('one bad batch');
    expect(await waiting).toBe(2);
  });

  it('fails the batch when the answer does not match the items', async () => {
    const sut = new KeyedBatcher<number, number>(async () => []);
    await expect(sut.submit('k', 1)).rejects.toThrow('batch of 1 answered 0');
  });

  describe('gathering under load', () => {
    afterEach(() => vi.useRealTimers());

    /** A batcher whose calls the test releases one by one. */
    function held(gather: { waitMs: number; until: number }) {
      const calls: number[][] = [];
      const gates: Array<() => void> = [];
      const sut = new KeyedBatcher<number, number>(
        async (_key, items) => {
          calls.push(items);
          await new Promise<void>((resolve) => gates.push(resolve));
          return items;
        },
        256,
        () => false,
        gather,
      );
      return { sut, calls, release: () => gates.shift()!() };
    }

    it('sends a lone item on an idle key at once', () => {
      const { sut, calls } = held({ waitMs: 50, until: 3 });
      void sut.submit('k', 1);
      expect(calls).toEqual([[1]]);
    });

    it('waits up to waitMs after a call for `until` items, then sends what came', async () => {
      vi.useFakeTimers();
      const { sut, calls, release } = held({ waitMs: 50, until: 3 });
      const first = sut.submit('k', 1);
      const second = sut.submit('k', 2);
      release();
      await first;
      await vi.advanceTimersByTimeAsync(49);
      expect(calls).toEqual([[1]]);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toEqual([[1], [2]]);
      release();
      expect(await second).toBe(2);
    });

    it('sends as soon as `until` items wait', async () => {
      vi.useFakeTimers();
      const { sut, calls, release } = held({ waitMs: 50, until: 3 });
      const all = [sut.submit('k', 1), sut.submit('k', 2)];
      release();
      await all[0];
      all.push(sut.submit('k', 3));
      expect(calls).toEqual([[1]]);
      all.push(sut.submit('k', 4));
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toEqual([[1], [2, 3, 4]]);
      release();
      expect(await Promise.all(all)).toEqual([1, 2, 3, 4]);
    });
  });
});
