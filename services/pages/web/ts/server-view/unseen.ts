import type { ServerJournalEntry } from '@origin-lab/contract';

/**
 * What sent a request the server saw but the page's waterfall (which wraps fetch and
 * XMLHttpRequest only) cannot show, told from the request itself; null for what script sent.
 * A POST to /api/beacon that matches no waterfall row was a beacon.
 */
export function sentByBrowser(entry: ServerJournalEntry): 'preflight' | 'EventSource' | 'WebSocket handshake' | null {
  if (entry.preflight) return 'preflight';
  if (entry.upgrade?.toLowerCase() === 'websocket') return 'WebSocket handshake';
  if (entry.accept?.includes('text/event-stream')) return 'EventSource';
  return null;
}

/** The path and query of an entry, as the page wrote them (the visitor token left out). */
export const targetOf = (entry: ServerJournalEntry) => entry.path + (entry.query ? `?${entry.query}` : '');

/** An EventSource request the page opened, or one the browser made again on its own. */
export type EventSourceRequest = 'EventSource' | 'EventSource reconnect';

/**
 * Tells each EventSource request in the journal (ascending ids) from the browser's reconnects:
 * the first request for a target after the page last created an EventSource for it is the
 * opening; every further one, until the page creates another, is a reconnect the page's script
 * never made. skewMs allows for the page's clock and the server's to differ a little.
 */
export function eventSourceRequests(
  items: readonly { id: number; entry: ServerJournalEntry }[],
  openings: readonly { target: string; atMs: number }[],
  skewMs = 1_000,
): Map<number, EventSourceRequest> {
  const kinds = new Map<number, EventSourceRequest>();
  const used = new Set<number>();
  for (const { id, entry } of items) {
    if (sentByBrowser(entry) !== 'EventSource') continue;
    const target = targetOf(entry);
    const at = Date.parse(entry.at);
    let latest = -1;
    openings.forEach((o, index) => {
      if (o.target === target && o.atMs <= at + skewMs) latest = index;
    });
    const opens = latest >= 0 && !used.has(latest);
    if (opens) used.add(latest);
    kinds.set(id, opens ? 'EventSource' : 'EventSource reconnect');
  }
  return kinds;
}
