import type { Awaitable } from '../shared-state/awaitable.js';

/**
 * What the server saw, kept per visitor: a bounded ring of entries for each token, the visitors
 * themselves bounded and dropped when idle. Each entry gets an id, increasing per visitor, so a
 * reader that reconnects with the last id it saw gets exactly what it missed.
 */

export interface JournalLimits {
  /** Entries kept per visitor; the oldest go first. */
  entriesPerVisitor: number;
  /** Visitors kept; the one seen least recently goes first. */
  visitors: number;
  /** A visitor with no entry recorded and no reader for this long is dropped. */
  idleMs: number;
}

export interface Stored<T> {
  id: number;
  entry: T;
}

/** A live reader: each new entry, and the end when its visitor is dropped to make room. */
export interface Reader<T> {
  entry(stored: Stored<T>): void;
  end(): void;
}

/** A reader's place on a journal: ready once no new entry can pass it by; stop() leaves. */
export interface Subscription {
  ready: Awaitable<void>;
  stop(): void;
}

/**
 * Every visitor's journal: in one process's memory (VisitorJournals) or in Redis, where an
 * entry recorded by any replica reaches the visitor's readers on every replica.
 */
export interface JournalStore<T> {
  /** Adds an entry to the visitor's journal and hands it to the visitor's live readers. */
  record(token: string, entry: T): void;
  /** The visitor's entries with an id above afterId (all of them for 0), oldest first. */
  entriesAfter(token: string, afterId?: number): Awaitable<Stored<T>[]>;
  /** Hands each new entry of the visitor to reader until stop() is called. */
  subscribe(token: string, reader: Reader<T>): Subscription;
}

const IDLE_CHECK_INTERVAL_MS = 1_000;

interface Visitor<T> {
  /**
   * A ring: filled up to the cap, then each new entry takes the place of the oldest, at `oldest`.
   * Recording stays one store however large the cap (JOURNAL_ENTRIES allows 100,000), where
   * shifting a full array may move every entry.
   */
  entries: Stored<T>[];
  oldest: number;
  nextId: number;
  lastSeen: number;
  readers: Set<Reader<T>>;
}

export class VisitorJournals<T> implements JournalStore<T> {
  /** In order of last activity, least recent first: eviction takes from the front. */
  private readonly visitors = new Map<string, Visitor<T>>();
  /** The visitor touched last: already at the end of the Map's order. */
  private latest: string | undefined;
  private idleCheckedAt = -Infinity;

  constructor(
    private readonly limits: JournalLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds an entry to the visitor's journal and hands it to the visitor's live readers. */
  record(token: string, entry: T): Stored<T> {
    const visitor = this.touch(token);
    const stored = { id: visitor.nextId++, entry };
    const { entries } = visitor;
    if (entries.length < this.limits.entriesPerVisitor) entries.push(stored);
    else {
      entries[visitor.oldest] = stored;
      visitor.oldest = (visitor.oldest + 1) % entries.length;
    }
    if (visitor.readers.size > 0) for (const reader of visitor.readers) reader.entry(stored);
    return stored;
  }

  /** The visitor's entries with an id above afterId (all of them for 0), oldest first. */
  entriesAfter(token: string, afterId = 0): Stored<T>[] {
    this.dropIdle();
    const visitor = this.visitors.get(token);
    if (visitor === undefined) return [];
    const { entries, oldest } = visitor;
    const inOrder = oldest === 0 ? entries : [...entries.slice(oldest), ...entries.slice(0, oldest)];
    return inOrder.filter((stored) => stored.id > afterId);
  }

  /** Hands each new entry of the visitor to reader until stop() is called. */
  subscribe(token: string, reader: Reader<T>): Subscription {
    const visitor = this.touch(token);
    visitor.readers.add(reader);
    return {
      ready: undefined,
      stop: () => {
        visitor.readers.delete(reader);
        // Reading counts as activity: the idle clock starts when the last reader leaves.
        if (this.visitors.get(token) === visitor) this.touch(token);
      },
    };
  }

  get visitorCount(): number {
    return this.visitors.size;
  }

  private touch(token: string): Visitor<T> {
    const now = this.now();
    this.dropIdle(now);
    let visitor = this.visitors.get(token);
    if (visitor === undefined) {
      visitor = { entries: [], oldest: 0, nextId: 1, lastSeen: 0, readers: new Set() };
      this.makeRoom();
      this.visitors.set(token, visitor);
    } else if (token !== this.latest) {
      // Moved to the end of the Map's order; a page's requests come in bursts, so mostly it is there already.
      this.visitors.delete(token);
      this.visitors.set(token, visitor);
    }
    this.latest = token;
    visitor.lastSeen = now;
    return visitor;
  }

  /** Drops the least recently seen visitor when a new one would pass the cap. */
  private makeRoom(): void {
    while (this.visitors.size >= this.limits.visitors) {
      const oldest = this.visitors.keys().next();
      if (oldest.done) return;
      this.drop(oldest.value);
    }
  }

  private dropIdle(now = this.now()): void {
    // At most once a second (or once per idle time, if shorter): the scan costs every request an
    // iterator, and a visitor kept a moment past its idle time costs nothing.
    if (now - this.idleCheckedAt < Math.min(IDLE_CHECK_INTERVAL_MS, this.limits.idleMs)) return;
    this.idleCheckedAt = now;
    const cutoff = now - this.limits.idleMs;
    for (const [token, visitor] of this.visitors) {
      if (visitor.lastSeen > cutoff) return;
      if (visitor.readers.size === 0) this.drop(token);
    }
  }

  private drop(token: string): void {
    const visitor = this.visitors.get(token);
    this.visitors.delete(token);
    if (!visitor) return;
    const readers = [...visitor.readers];
    visitor.readers.clear();
    for (const reader of readers) reader.end();
  }
}
