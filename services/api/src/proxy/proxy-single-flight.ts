/**
 * Coalesces concurrent work on the same key: while one call is in flight, later callers wait
 * for its result instead of starting their own. The entry goes away as soon as the call settles.
 */
export class SingleFlight<T> {
  private inFlight = new Map<string, Promise<T>>();

  get size(): number {
    return this.inFlight.size;
  }

  run(key: string, work: () => Promise<T>): { result: Promise<T>; joined: boolean } {
    const running = this.inFlight.get(key);
    if (running !== undefined) return { result: running, joined: true };
    const result = work().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, result);
    return { result, joined: false };
  }
}
