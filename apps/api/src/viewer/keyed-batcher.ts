interface Waiting<I, O> {
  item: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

/**
 * Natural batching per key: at most one call per key is in flight; items that arrive meanwhile go
 * together into the next call. A lone item goes out at once, so there is no added delay without a
 * queue. `run` must answer one output per item, in order.
 */
export class KeyedBatcher<I, O> {
  private readonly queues = new Map<string, Waiting<I, O>[]>();

  constructor(
    private readonly run: (key: string, items: I[]) => Promise<O[]>,
    private readonly maxBatch = 256,
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
