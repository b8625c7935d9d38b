import type { CallSummary, ReceivedCall } from '@origin-lab/contract';

/** What the third party received, so tests and instructors can see cache hits and misses from outside. */
export class CallLog {
  private total = 0;
  private unauthorized = 0;
  private byPath = new Map<string, number>();
  private recent: ReceivedCall[] = [];

  constructor(private readonly keepRecent = 100) {}

  record(call: Omit<ReceivedCall, 'n'>): ReceivedCall {
    this.total += 1;
    if (!call.authorized) this.unauthorized += 1;
    this.byPath.set(call.path, (this.byPath.get(call.path) ?? 0) + 1);
    const entry = { n: this.total, ...call };
    this.recent.push(entry);
    if (this.recent.length > this.keepRecent) this.recent.shift();
    return entry;
  }

  summary(held: number): CallSummary {
    return {
      total: this.total,
      unauthorized: this.unauthorized,
      byPath: Object.fromEntries(this.byPath),
      held,
      recent: [...this.recent],
    };
  }

  reset(): void {
    this.total = 0;
    this.unauthorized = 0;
    this.byPath.clear();
    this.recent = [];
  }
}
