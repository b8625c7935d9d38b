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
