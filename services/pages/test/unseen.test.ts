import { describe, expect, it } from 'vitest';
import { eventSourceRequests, sentByBrowser } from '../web/ts/server-view/unseen.js';
import { entry } from './journal-entry.fixture.js';

const T0 = Date.parse('2026-11-23T08:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1_000).toISOString();
const stream = (id: number, seconds: number, query = 'count=2') => ({
  id,
  entry: entry({ path: '/api/stream', query, accept: 'text/event-stream', at: at(seconds) }),
});

describe('sentByBrowser', () => {
  it.each([
    ['a preflight', { method: 'OPTIONS', preflight: true }, 'preflight'],
    ['an EventSource request', { accept: 'text/event-stream' }, 'EventSource'],
    ['a WebSocket handshake', { upgrade: 'WebSocket' }, 'WebSocket handshake'],
    ['a fetch', {}, null],
  ] as const)('%s', (_, overrides, expected) => {
    expect(sentByBrowser(entry(overrides))).toBe(expected);
  });
});

describe('eventSourceRequests', () => {
  it('the first request after the page created the EventSource opens it; the later ones are reconnects', () => {
    const kinds = eventSourceRequests(
      [stream(1, 0), stream(2, 3), stream(3, 6)],
      [{ target: '/api/stream?count=2', atMs: T0 - 10 }],
    );
    expect([...kinds]).toEqual([
      [1, 'EventSource'],
      [2, 'EventSource reconnect'],
      [3, 'EventSource reconnect'],
    ]);
  });

  it('a second EventSource created by the page is an opening again', () => {
    const kinds = eventSourceRequests(
      [stream(1, 0), stream(2, 3), stream(3, 20)],
      [
        { target: '/api/stream?count=2', atMs: T0 },
        { target: '/api/stream?count=2', atMs: T0 + 19_900 },
      ],
    );
    expect(kinds.get(3)).toBe('EventSource');
    expect(kinds.get(2)).toBe('EventSource reconnect');
  });

  it('allows the page clock to run a little ahead of the server, not more', () => {
    const opening = (aheadMs: number) => [{ target: '/api/stream?count=2', atMs: T0 + aheadMs }];
    expect(eventSourceRequests([stream(1, 0)], opening(800)).get(1)).toBe('EventSource');
    expect(eventSourceRequests([stream(1, 0)], opening(5_000)).get(1)).toBe('EventSource reconnect');
  });

  it('matches on the whole target and ignores what is not an EventSource request', () => {
    const kinds = eventSourceRequests(
      [stream(1, 0, 'count=3'), { id: 2, entry: entry({ path: '/api/posts', at: at(1) }) }],
      [{ target: '/api/stream?count=2', atMs: T0 }],
    );
    expect([...kinds]).toEqual([[1, 'EventSource reconnect']]);
  });
});
