/**
 * A memo of results that never go stale (pure functions of the key), bounded in size: when it
 * is full the oldest half goes, so a flood of new keys costs memory once, never more.
 */
export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.capacity) {
      let drop = Math.ceil(this.capacity / 2);
      for (const old of this.entries.keys()) {
        this.entries.delete(old);
        if (--drop === 0) break;
      }
    }
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}
