/**
 * What is kept per key (a visitor's token) until the end of this turn of the event loop, then
 * handed to send together: one Redis call per key and turn instead of one per request. No timer:
 * nothing waits past the turn it was made in, and nothing is held while the process idles.
 */
export class TurnBatches<V> {
  private pending = new Map<string, V>();

  constructor(private readonly send: (batches: Map<string, V>) => void) {}

  /** The key's batch in this turn, made by start when it has none yet. */
  batch(key: string, start: () => V): V {
    let value = this.pending.get(key);
    if (value === undefined) {
      value = start();
      this.pending.set(key, value);
      if (this.pending.size === 1) setImmediate(() => this.flush());
    }
    return value;
  }

  /** Sends everything waiting now: before a read that must see it, or a replica that stops. */
  flush(): void {
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
