import type { ServerJournalEntry } from '@origin-lab/contract';
import type { JournalFeed } from '../server-view/journal-feed.js';

/** The query parameter that marks one experiment's request, so its journal entries can be found. */
const MARK_PARAMETER = 'mark';

/** The URL with mark added to its query: the request and its preflight both carry it. */
export function markedUrl(url: string, mark: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${MARK_PARAMETER}=${encodeURIComponent(mark)}`;
}

/** What the server saw of the requests carrying one mark: the request itself and its preflight. */
export interface ServerEvidence {
  /** The request, if it reached the server; null if the browser never sent it. */
  request: ServerJournalEntry | null;
  /** The browser's preflight for it, if there was one. */
  preflight: ServerJournalEntry | null;
}

/**
 * How long after the page has its answer an entry may still be on its way: one api process files
 * each entry before it reads the next request, but api replicas on Redis file it a moment after
 * the answer leaves, and another replica may serve the page's next read first. A page that
 * counts entries, or believes one missing, looks again after this.
 */
export const FILING_LAG_MS = 300;

const carries = (entry: ServerJournalEntry, mark: string) =>
  new URLSearchParams(entry.query).get(MARK_PARAMETER) === mark;

/**
 * Asks this visitor's journal (same origin, so always readable) what reached the server with
 * mark. This is how a page sees what CORS hides from it: a request the page could not read may
 * still have been handled, and one behind a refused preflight never arrives. Waits up to waitMs
 * for the request itself; 0 asks once, which api replicas on Redis may answer before the entry
 * is filed (JournalFeed.waitFor).
 */
export async function serverEvidence(journal: JournalFeed, mark: string, waitMs = 0): Promise<ServerEvidence> {
  const request = await journal.waitFor((entry) => !entry.preflight && carries(entry, mark), waitMs);
  const preflight = journal.items.find((item) => item.entry.preflight && carries(item.entry, mark));
  return { request: request?.entry ?? null, preflight: preflight?.entry ?? null };
}

/**
 * Every entry carrying mark, preflights included, in the order they arrived: asks until at least
 * requests of them are not preflights, or waitMs have passed. For a run of several requests
 * under one mark (the preflight cache, an EventSource and its reconnects).
 */
export async function serverEntries(
  journal: JournalFeed,
  mark: string,
  requests: number,
  waitMs: number,
): Promise<ServerJournalEntry[]> {
  const marked = () => journal.items.map((item) => item.entry).filter((entry) => carries(entry, mark));
  // The condition is on the whole journal, not on one entry: any entry may stand for it.
  await journal.waitFor(() => marked().filter((entry) => !entry.preflight).length >= requests, waitMs);
  return marked();
}
