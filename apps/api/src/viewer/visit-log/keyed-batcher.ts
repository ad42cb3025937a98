interface Waiting<I, O> {
  item: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

/**
 * How a key under load gathers its next batch: when a call returns with fewer than `until` items
 * waiting, the next call waits up to `waitMs` for that many (as PostgreSQL's commit_delay does for
 * commits). Each call costs the database a fixed price (a statement, a row lock, a commit) beside
 * its items' own, so under load fewer, larger calls cost less per item, for at most `waitMs` more
 * latency. A key that was idle never waits.
 */
export interface Gathering {
  waitMs: number;
  until: number;
}

/**
 * Natural batching per key: at most one call per key is in flight; items that arrive meanwhile go
 * together into the next call (see `Gathering` for waiting for more). A lone item goes out at once,
 * so there is no added delay without a queue. `run` must answer one output per item, in order.
 *
 * A call that fails with an error `failsWaiting` accepts fails the items waiting behind it too,
 * instead of sending them: when the call's target has gone away, they would only wait for their
 * own failure, and their answer's delay would add up to two of the call's.
 */
export class KeyedBatcher<I, O> {
  private readonly queues = new Map<string, Waiting<I, O>[]>();
  /** Keys gathering their next batch: called once enough items wait. */
  private readonly gathering = new Map<string, () => void>();

  constructor(
    private readonly run: (key: string, items: I[]) => Promise<O[]>,
    private readonly maxBatch = 256,
    private readonly failsWaiting: (error: unknown) => boolean = () => false,
    private readonly gather: Gathering | null = null,
  ) {}

  submit(key: string, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        if (this.gather && queue.length >= this.gather.until) this.gathering.get(key)?.();
        return;
      }
      this.queues.set(key, []);
      void this.drain(key, [{ item, resolve, reject }]);
    });
  }

  private async drain(key: string, batch: Waiting<I, O>[]): Promise<void> {
    for (;;) {
      try {
        const outputs = await this.run(
          key,
          batch.map((waiting) => waiting.item),
        );
        if (outputs.length !== batch.length) throw new Error(`batch of ${batch.length} answered ${outputs.length}`);
        batch.forEach((waiting, i) => waiting.resolve(outputs[i]!));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
        if (this.failsWaiting(error)) for (const waiting of this.queues.get(key)!.splice(0)) waiting.reject(error);
      }
      const queue = this.queues.get(key)!;
      if (queue.length === 0) {
        this.queues.delete(key);
        return;
      }
      if (this.gather && queue.length < this.gather.until) await this.gathered(key, this.gather.waitMs);
      batch = queue.splice(0, this.maxBatch);
    }
  }

  /** Resolves once enough items wait for `key`, or after `waitMs`. */
  private gathered(key: string, waitMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.gathering.delete(key);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      this.gathering.set(key, done);
    });
  }
}
