import type { ServerJournalEntry } from '@origin-lab/contract';

export const PAGE = 'http://127.0.0.1:8080';

/** A journal entry as the api would record it; each case overrides what it is about. */
export function entry(overrides: Partial<ServerJournalEntry>): ServerJournalEntry {
  return {
    at: '2026-11-23T08:00:00.000Z',
    method: 'GET',
    path: '/api/posts',
    query: '',
    httpVersion: 'HTTP/1.1',
    origin: PAGE,
    secFetch: { mode: 'cors', site: 'same-site', dest: 'empty', storageAccess: null },
    preflight: false,
    accessControlRequest: { method: null, headers: null },
    accept: '*/*',
    contentType: null,
    bodyKind: 'none',
    bytesIn: 0,
    bytesOut: 100,
    status: 200,
    durationMs: 1,
    cors: { 'access-control-allow-origin': PAGE },
    credentials: { cookie: false, authorization: false, cookieNames: [] },
    upgrade: null,
    lastEventId: null,
    ...overrides,
  };
}
