interface Waiting<I, O> {
  item: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

/**
 * Natural batching per key: at most one call per key is in flight; items that arrive meanwhile go
 * together into the next call. A lone item goes out at once, so there is no added delay without a
 * queue. `run` must answer one output per item, in order.
 *
 * A call that fails with an error `failsWaiting` accepts fails the items waiting behind it too,
 * instead of sending them: when the call's target has gone away, they would only wait for their
 * own failure, and their answer's delay would add up to two of the call's.
 */
export class KeyedBatcher<I, O> {
  private readonly queues = new Map<string, Waiting<I, O>[]>();

  constructor(
    private readonly run: (key: string, items: I[]) => Promise<O[]>,
    private readonly maxBatch = 256,
    private readonly failsWaiting: (error: unknown) => boolean = () => false,
  ) {}

  submit(key: string, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
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
      batch = queue.splice(0, this.maxBatch);
    }
  }
}
