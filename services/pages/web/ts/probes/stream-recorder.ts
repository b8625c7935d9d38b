/**
 * Bookkeeping for one EventSource demonstration, free of the DOM and of EventSource itself:
 * which runs were seen (a run restarts at n=1 because no Last-Event-ID is used), how long each
 * reconnect took, and when the page should call close().
 */

export const CONNECTING = 0;
export const CLOSED = 2;

export type Decision = 'continue' | 'close';

export interface RecorderOptions {
  /** Call close() when done arrives (the agreement between page and service). */
  closeOnDone: boolean;
  /** Without close on done: stop after this many restarts. */
  maxRestarts: number;
}

export class StreamRecorder {
  readonly runs: number[][] = [];
  readonly log: string[] = [];
  readonly reconnectDelaysMs: number[] = [];
  /** For each reconnect, when the page saw the error that began it (the page's clock). */
  readonly reconnectErrorsAt: number[] = [];
  opens = 0;
  errors = 0;
  dones = 0;
  /** Why the page called close(), if it did. */
  closedBecause: string | null = null;
  private errorAt: number | null = null;

  constructor(private readonly options: RecorderOptions) {}

  get restarts(): number {
    return Math.max(0, this.runs.length - 1);
  }

  open(now: number): Decision {
    this.opens += 1;
    if (this.errorAt !== null) {
      const delay = Math.round(now - this.errorAt);
      this.reconnectDelaysMs.push(delay);
      this.reconnectErrorsAt.push(this.errorAt);
      this.log.push(`open again after ${delay} ms`);
    } else this.log.push('open');
    this.errorAt = null;
    return 'continue';
  }

  tick(n: number, of: number): Decision {
    if (n === 1 || this.runs.length === 0) this.runs.push([]);
    this.runs[this.runs.length - 1]!.push(n);
    this.log.push(`tick ${n} of ${of}`);
    return 'continue';
  }

  done(): Decision {
    this.dones += 1;
    this.log.push('done');
    if (this.options.closeOnDone) return this.close('done arrived');
    return 'continue';
  }

  error(readyState: number, now: number): Decision {
    this.errors += 1;
    this.log.push(
      `error (readyState ${readyState}${readyState === CONNECTING ? ', will reconnect' : readyState === CLOSED ? ', closed for good' : ''})`,
    );
    if (readyState === CONNECTING) {
      this.errorAt = now;
      if (!this.options.closeOnDone && this.restarts >= this.options.maxRestarts)
        return this.close(`${this.restarts} restarts`);
    }
    return 'continue';
  }

  close(reason: string): Decision {
    this.closedBecause = reason;
    this.log.push(`page calls close(): ${reason}`);
    return 'close';
  }
}

/** What timed the reconnects: the engine's Resource Timing entries, or the page's own events. */
export type ReconnectTimer = 'resource timing' | 'events';

const TIMER_WORDS: Record<ReconnectTimer, string> = {
  'resource timing': "the engine's resource timing",
  events: "the page's events",
};

/**
 * What was measured of a stream's reconnects, in words: each delay and what timed it, or, with
 * no delay measured, that the stream did not reconnect (no empty measurement).
 */
export function reconnectsInWords(delaysMs: readonly number[], timedBy: ReconnectTimer, opens: number): string {
  if (delaysMs.length === 0)
    return opens === 0
      ? 'did not reconnect: the stream never opened'
      : 'did not reconnect: the stream never opened again';
  return `reconnected after ${delaysMs.join(' ms, ')} ms (timed by ${TIMER_WORDS[timedBy]})`;
}

/**
 * A control for timing the engine's reconnects: how late the page's own timers run. At an error
 * that will reconnect, the engine has just started its reconnect timer; the page starts one of the
 * delay it expects, on the same main thread. On a busy machine both run late by about as much, so
 * a measured delay less the page timer's lateness is about the delay the engine chose.
 */
export class TimerLateness {
  /** One per timer started, in order: how long after its due time it ran; null until it has. */
  readonly lateMs: (number | null)[] = [];
  private readonly pending = new Set<ReturnType<typeof setTimeout>>();

  start(delayMs: number): void {
    const index = this.lateMs.push(null) - 1;
    const startedAt = performance.now();
    const id = setTimeout(() => {
      this.pending.delete(id);
      this.lateMs[index] = Math.max(0, Math.round(performance.now() - startedAt - delayMs));
    }, delayMs);
    this.pending.add(id);
  }

  /** Cancels the timers still waiting: their lateness stays unknown (null). */
  stop(): void {
    for (const id of this.pending) clearTimeout(id);
    this.pending.clear();
  }
}

/**
 * Whether every delay passes ok: as measured, or less how late the page itself ran at that
 * reconnect (lateMs: never negative, so nothing is ever added). A delay with no lateness known
 * passes only as measured.
 */
export function delaysPass(
  delaysMs: readonly number[],
  lateMs: readonly (number | null)[],
  ok: (ms: number) => boolean,
): boolean {
  return delaysMs.every((ms, index) => ok(ms) || ok(ms - (lateMs[index] ?? 0)));
}

/** How late the page itself ran at each reconnect, in words; null when nothing was measured. */
export function latenessInWords(lateMs: readonly (number | null)[]): string | null {
  if (!lateMs.some((ms) => ms !== null)) return null;
  const each = lateMs.map((ms) => (ms === null ? 'unknown' : `${ms} ms`)).join(', ');
  return `the page itself ran late by ${each} (the end of a connection reached its script late, or its own timer of the expected delay ran late): a busy machine delays the reconnect as much`;
}
