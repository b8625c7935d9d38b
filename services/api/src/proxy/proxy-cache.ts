import type { Awaitable } from '../shared-state/awaitable.js';

/** One stored upstream answer: what is replayed on a hit, byte for byte. */
export interface CachedAnswer {
  status: number;
  /** Only the headers that describe the content; never per-origin (CORS) or per-request ones. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyCacheOptions {
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
  /** Milliseconds; injectable so tests move time instead of sleeping. */
  now: () => number;
}

/** A fresh answer and its age in whole seconds (the Age header). */
export interface CacheHit {
  answer: CachedAnswer;
  ageSeconds: number;
}

/** The proxy's shared cache: in one process's memory (ProxyCache) or in Redis (RedisProxyCache). */
export interface AnswerCache {
  /** The fresh answer for key, or undefined. */
  get(key: string): Awaitable<CacheHit | undefined>;
  /** Stores an answer; false when caching is off or the answer alone exceeds the byte bound. */
  set(key: string, answer: CachedAnswer): Awaitable<boolean>;
}

interface Entry {
  answer: CachedAnswer;
  storedAt: number;
  bytes: number;
}

/**
 * The proxy's shared cache: keyed by upstream URL, entries expire after ttlMs, and the least
 * recently used entries are dropped to stay within maxEntries and maxBytes.
 * A Map keeps insertion order, so re-inserting on every hit makes its first key the LRU one.
 */
export class ProxyCache implements AnswerCache {
  private entries = new Map<string, Entry>();
  private totalBytes = 0;

  constructor(private readonly options: ProxyCacheOptions) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** The fresh answer for key and its age in whole seconds, or undefined (an expired entry is dropped). */
  get(key: string): CacheHit | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    const age = this.options.now() - entry.storedAt;
    if (age >= this.options.ttlMs || age < 0) {
      this.remove(key, entry);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { answer: entry.answer, ageSeconds: Math.floor(age / 1_000) };
  }

  /** Stores an answer; returns false when caching is off or the answer alone exceeds the byte bound. */
  set(key: string, answer: CachedAnswer): boolean {
    const bytes = entrySize(key, answer);
    if (this.options.ttlMs <= 0 || bytes > this.options.maxBytes) return false;
    const previous = this.entries.get(key);
    if (previous !== undefined) this.remove(key, previous);
    this.entries.set(key, { answer, storedAt: this.options.now(), bytes });
    this.totalBytes += bytes;
    for (const [oldKey, oldEntry] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.totalBytes <= this.options.maxBytes) break;
      this.remove(oldKey, oldEntry);
    }
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }
}

/** What an entry costs (exported: the Redis cache counts alike): the body, the key and the header text (close enough to real memory to bound it). */
export function entrySize(key: string, answer: CachedAnswer): number {
  let bytes = answer.body.length + key.length;
  for (const [name, value] of Object.entries(answer.headers)) bytes += name.length + value.length;
  return bytes;
}
