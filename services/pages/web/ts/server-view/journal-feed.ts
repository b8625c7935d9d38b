import type { ServerJournalEntry } from '@origin-lab/contract';

/** One entry of this visitor's journal, with the id the server gave it. */
export interface JournalItem {
  id: number;
  entry: ServerJournalEntry;
  /** When this page received it, on performance.now()'s clock. */
  receivedAt: number;
}

type Listener = (items: readonly JournalItem[]) => void;

/** Journal items kept on the page; the server keeps its own bounded copy. */
const MAX_ITEMS = 200;

/**
 * This visitor's journal, live: a same-origin EventSource to /lab/journal. The browser resumes
 * with Last-Event-ID after a reconnect and the server sends exactly what was missed; an id seen
 * twice is ignored all the same.
 */
export class JournalFeed {
  readonly items: JournalItem[] = [];
  private readonly listeners: Listener[] = [];
  private lastId = 0;
  private source: EventSource | undefined;

  constructor(private readonly token: string) {}

  /** Opens the stream; the EventSource given is the unwrapped one, so the feed never tags itself. */
  start(EventSourceClass: typeof EventSource = EventSource): void {
    this.source = new EventSourceClass(`/lab/journal?visitor=${encodeURIComponent(this.token)}`);
    this.source.addEventListener('entry', (event) => {
      const message = event as MessageEvent<string>;
      const id = Number(message.lastEventId);
      if (!(id > this.lastId)) return;
      this.lastId = id;
      this.items.push({ id, entry: JSON.parse(message.data) as ServerJournalEntry, receivedAt: performance.now() });
      if (this.items.length > MAX_ITEMS) this.items.shift();
      for (const listener of this.listeners) listener(this.items);
    });
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Waits until an item matches, or the deadline passes (then null). */
  async find(match: (entry: ServerJournalEntry) => boolean, waitMs: number): Promise<JournalItem | null> {
    const found = () => this.items.find((item) => match(item.entry)) ?? null;
    const deadline = performance.now() + waitMs;
    while (performance.now() < deadline) {
      const item = found();
      if (item) return item;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return found();
  }

  stop(): void {
    this.source?.close();
  }
}
