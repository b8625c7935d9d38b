import type { JournalItem, JournalPage, ServerJournalEntry } from '@origin-lab/contract';

type Listener = (items: readonly JournalItem[]) => void;

/** How often waitFor asks the server while an experiment waits for evidence. */
const WAIT_POLL_MS = 150;

/** Journal items kept on the page; the server keeps its own bounded copy. */
const MAX_ITEMS = 200;
/** How often a page served over HTTP/1.1 asks for new entries. */
const POLL_MS = 1_000;
/**
 * The longest one read of the journal may take. A read that never answers (a connection the
 * engine stalled, a server gone) would otherwise hold waitFor past its own wait and pause() for
 * good, and with them an experiment's verdict or a page that is to leave. A read given up loses
 * nothing: the next one asks from the same id.
 */
const READ_MS = 5_000;

/**
 * This visitor's journal, live, from /lab/journal (same origin). An event stream resumes with
 * Last-Event-ID after a reconnect, a poll asks for what came after the last id; an id seen twice
 * is ignored all the same.
 */
export class JournalFeed {
  readonly items: JournalItem[] = [];
  private readonly listeners: Listener[] = [];
  private lastId = 0;
  /** Reads under way, so pause() can wait for them to end. */
  private readonly inFlight = new Set<Promise<void>>();
  private paused = false;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private source: EventSource | null = null;
  private reopen: (() => void) | null = null;

  /** fetchFn is the unwrapped fetch, so the feed never tags or records its own reads. */
  constructor(
    private readonly token: string,
    private readonly fetchFn: typeof fetch = fetch,
  ) {
    // Nothing is read while the page sits in the back/forward cache; it reads again when restored.
    window.addEventListener('pagehide', () => void this.pause());
    window.addEventListener('pageshow', (event) => {
      if (event.persisted) this.resume();
    });
  }

  /**
   * Starts reading. Over HTTP/2 an event stream costs no connection of its own; over HTTP/1.1 it
   * would hold one of the origin's six, which the connection experiments need, so the feed polls
   * instead; so does a page that asks not to stream (stream false). The class given is the
   * unwrapped EventSource, for the same reason as fetchFn.
   */
  start(EventSourceClass: typeof EventSource = EventSource, { stream = true } = {}): void {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    this.reopen =
      stream && navigation?.nextHopProtocol === 'h2' ? () => this.stream(EventSourceClass) : () => this.poll();
    this.reopen();
  }

  /**
   * Stops reading and resolves once no read is under way (never rejects): Firefox (ESR 153, measured) keeps no
   * page in the back/forward cache that leaves with a request open, or in the task one ends, and
   * a closed event stream takes it a while longer (why a page that will leave polls instead).
   */
  async pause(): Promise<void> {
    this.paused = true;
    clearTimeout(this.pollTimer);
    this.source?.close();
    // However each read ends: one that failed has nothing to finish.
    await Promise.allSettled(this.inFlight);
  }

  /** Reads again after pause(). */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.reopen?.();
  }

  /**
   * Asks the server once for every entry after the last one held: afterwards the feed holds all
   * recorded so far. A paused feed does not ask.
   */
  async refresh(): Promise<void> {
    if (this.paused) return;
    const read = this.read().finally(() => this.inFlight.delete(read));
    this.inFlight.add(read);
    await read;
  }

  private async read(): Promise<void> {
    const response = await this.fetchFn(this.url, {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      signal: AbortSignal.timeout(READ_MS),
    });
    if (!response.ok) throw new Error(`the journal answered ${response.status}`);
    this.add(((await response.json()) as JournalPage).entries);
  }

  /**
   * The first entry matching, asking the server until it is there or waitMs have passed (null).
   * With waitMs 0 it asks once. One api process files an entry as the answer leaves, before it
   * reads the next request; api replicas on Redis file it a moment later, which a wait covers.
   * The last read starts once waitMs have passed, so what was filed within the wait is seen
   * however long an earlier read took (a busy server, a class): a wait lasts at most waitMs and
   * two reads' bounds. pollMs: how often it asks (a long wait asks less often).
   */
  async waitFor(
    match: (entry: ServerJournalEntry) => boolean,
    waitMs: number,
    pollMs = WAIT_POLL_MS,
  ): Promise<JournalItem | null> {
    const deadline = performance.now() + waitMs;
    for (;;) {
      const last = performance.now() >= deadline;
      await this.refresh().catch(() => undefined);
      const found = this.items.find((item) => match(item.entry));
      if (found || last) return found ?? null;
      const left = deadline - performance.now();
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
    }
  }

  /** This visitor's entries after the last one held. */
  private get url(): string {
    return `/lab/journal?visitor=${encodeURIComponent(this.token)}&after=${this.lastId}`;
  }

  /** A new stream resumes after the last id held. */
  private stream(EventSourceClass: typeof EventSource): void {
    const source = new EventSourceClass(this.url);
    source.addEventListener('entry', (event) => {
      const message = event as MessageEvent<string>;
      this.add([{ id: Number(message.lastEventId), entry: JSON.parse(message.data) as ServerJournalEntry }]);
    });
    this.source = source;
  }

  private poll(): void {
    const once = async () => {
      // A failed poll loses nothing: the server keeps the journal and the next poll asks again.
      await this.refresh().catch(() => undefined);
      if (!this.paused) this.pollTimer = setTimeout(() => void once(), POLL_MS);
    };
    void once();
  }

  private add(entries: readonly JournalItem[]): void {
    let added = false;
    for (const { id, entry } of entries) {
      if (!(id > this.lastId)) continue;
      this.lastId = id;
      this.items.push({ id, entry });
      if (this.items.length > MAX_ITEMS) this.items.shift();
      added = true;
    }
    if (added) for (const listener of this.listeners) listener(this.items);
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }
}
