/** The exit-beacon logic, free of the DOM: three totals, a dirty flag, and when to send. */

export interface ExitPayload {
  clicks: number;
  keys: number;
  visibleSeconds: number;
}

export type SendReason = 'visibilitychange:hidden' | 'pagehide';

export class ExitBeacon {
  private dirty = false;
  readonly totals: ExitPayload = { clicks: 0, keys: 0, visibleSeconds: 0 };

  constructor(private readonly send: (body: string, reason: SendReason) => boolean) {}

  click(): void {
    this.totals.clicks += 1;
    this.dirty = true;
  }

  key(): void {
    this.totals.keys += 1;
    this.dirty = true;
  }

  setVisibleSeconds(seconds: number): void {
    this.totals.visibleSeconds = seconds;
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  /** The exact text that goes on the wire: a JSON string, so the beacon stays text/plain. */
  body(): string {
    return JSON.stringify(this.totals);
  }

  /** Sends only when something is new; returns what sendBeacon said, or null when nothing was sent. */
  flush(reason: SendReason): boolean | null {
    if (!this.dirty) return null;
    const queued = this.send(this.body(), reason);
    // A refused beacon (false) stays dirty so the next chance tries again.
    if (queued) this.dirty = false;
    return queued;
  }
}
