/**
 * What is kept per key (a visitor's token) for a while, then handed to send together: one Redis
 * call per key and batch instead of one per request. By default a batch lasts until the end of
 * this turn of the event loop (nothing waits past the turn it was made in); with waitMs, until
 * that long after its first key, for what needs no finer time. Nothing is held while the process
 * idles, and the timer never keeps it alive.
 */
export class KeyedBatches<V> {
  private pending = new Map<string, V>();
  private scheduled: NodeJS.Immediate | NodeJS.Timeout | null = null;

  constructor(
    private readonly send: (batches: Map<string, V>) => void,
    private readonly waitMs?: number,
  ) {}

  /** The key's value in the batch being gathered, made by start when it has none yet. */
  batch(key: string, start: () => V): V {
    let value = this.pending.get(key);
    if (value === undefined) {
      value = start();
      this.pending.set(key, value);
      if (this.scheduled === null)
        this.scheduled =
          this.waitMs === undefined
            ? setImmediate(() => this.flush())
            : setTimeout(() => this.flush(), this.waitMs).unref();
    }
    return value;
  }

  /** Sends everything waiting now: before a read that must see it, or a replica that stops. */
  flush(): void {
    if (this.scheduled !== null) {
      if (this.waitMs === undefined) clearImmediate(this.scheduled as NodeJS.Immediate);
      else clearTimeout(this.scheduled as NodeJS.Timeout);
      this.scheduled = null;
    }
    if (this.pending.size === 0) return;
    const batches = this.pending;
    this.pending = new Map();
    this.send(batches);
  }

  /** Sends one key's batch now, alone (a read of that key alone). */
  flushKey(key: string): void {
    const value = this.pending.get(key);
    if (value === undefined) return;
    this.pending.delete(key);
    this.send(new Map([[key, value]]));
  }
}
