import type { ServerJournalEntry } from '@origin-lab/contract';

/** One entry of this visitor's journal, with the id the server gave it. */
export interface JournalItem {
  id: number;
  entry: ServerJournalEntry;
}

type Listener = (items: readonly JournalItem[]) => void;

/** Journal items kept on the page; the server keeps its own bounded copy. */
const MAX_ITEMS = 200;
/** How often a page served over HTTP/1.1 asks for new entries. */
const POLL_MS = 1_000;

/**
 * This visitor's journal, live, from /lab/journal (same origin). An event stream resumes with
 * Last-Event-ID after a reconnect, a poll asks for what came after the last id; an id seen twice
 * is ignored all the same.
 */
export class JournalFeed {
  readonly items: JournalItem[] = [];
  private readonly listeners: Listener[] = [];
  private lastId = 0;

  constructor(private readonly token: string) {}

  /**
   * Starts reading. Over HTTP/2 an event stream costs no connection of its own; over HTTP/1.1 it
   * would hold one of the origin's six, which the connection experiments need, so the feed polls
   * instead. The classes given are the unwrapped ones, so the feed never tags or records itself.
   */
  start(EventSourceClass: typeof EventSource = EventSource, fetchFn: typeof fetch = fetch): void {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (navigation?.nextHopProtocol === 'h2') this.stream(EventSourceClass);
    else this.poll(fetchFn);
  }

  private get url(): string {
    return `/lab/journal?visitor=${encodeURIComponent(this.token)}`;
  }

  private stream(EventSourceClass: typeof EventSource): void {
    const source = new EventSourceClass(this.url);
    source.addEventListener('entry', (event) => {
      const message = event as MessageEvent<string>;
      this.add([{ id: Number(message.lastEventId), entry: JSON.parse(message.data) as ServerJournalEntry }]);
    });
  }

  private poll(fetchFn: typeof fetch): void {
    const once = async () => {
      try {
        const response = await fetchFn(`${this.url}&after=${this.lastId}`, {
          headers: { Accept: 'application/json' },
          cache: 'no-store',
        });
        if (response.ok) this.add(((await response.json()) as { entries: JournalItem[] }).entries);
      } catch {
        // The next poll tries again; nothing is lost, the server keeps the journal.
      }
      setTimeout(() => void once(), POLL_MS);
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
