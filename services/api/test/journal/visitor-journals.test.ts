import { describe, expect, it } from 'vitest';
import { VisitorJournals, type Stored } from '../../src/journal/visitor-journals.js';
import { isVisitorToken } from '../../src/journal/visitor-token.js';

/** A clock the test moves by hand: idle expiry without sleeping. */
function manualClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const limits = { entriesPerVisitor: 3, visitors: 2, idleMs: 60_000 };
const ids = (stored: Stored<string>[]) => stored.map((s) => s.id);
const entries = (stored: Stored<string>[]) => stored.map((s) => s.entry);

describe('visitor tokens', () => {
  it.each([
    ['16 base64url characters (96 bits)', 'AAAAAAAAAAAAAAAA', true],
    ['22 characters (128 bits)', 'abcdefghijklmnopqrstuv', true],
    ['- and _ are base64url', 'ab-cd_ef-gh_ij-kl', true],
    ['64 characters', 'a'.repeat(64), true],
    ['15 characters: fewer than 96 bits', 'a'.repeat(15), false],
    ['65 characters', 'a'.repeat(65), false],
    ['empty', '', false],
    ['+ and / are not base64url', 'abcdefgh+/abcdefgh', false],
    ['padding', 'abcdefghijklmnop==', false],
    ['a line break', 'abcdefghijklmnop\n', false],
  ])('%s', (_case, token, valid) => {
    expect(isVisitorToken(token)).toBe(valid);
  });
});

describe('the journal of one visitor', () => {
  it('numbers entries from 1 and reads them back in order', () => {
    const journals = new VisitorJournals<string>(limits);
    journals.record('visitor-a', 'GET /api/posts');
    journals.record('visitor-a', 'OPTIONS /api/echo');
    expect(journals.entriesAfter('visitor-a')).toEqual([
      { id: 1, entry: 'GET /api/posts' },
      { id: 2, entry: 'OPTIONS /api/echo' },
    ]);
  });

  // A cap of 3: every place the oldest entry can be in, once the journal has gone round.
  it.each([
    { recorded: 2, kept: [1, 2], afterTwo: [] },
    { recorded: 3, kept: [1, 2, 3], afterTwo: [3] },
    { recorded: 4, kept: [2, 3, 4], afterTwo: [3, 4] },
    { recorded: 5, kept: [3, 4, 5], afterTwo: [3, 4, 5] },
    { recorded: 6, kept: [4, 5, 6], afterTwo: [4, 5, 6] },
    { recorded: 7, kept: [5, 6, 7], afterTwo: [5, 6, 7] },
  ])('after $recorded entries keeps only the newest, in order: $kept', ({ recorded, kept, afterTwo }) => {
    const journals = new VisitorJournals<string>(limits);
    for (let n = 1; n <= recorded; n++) journals.record('visitor-a', `request ${n}`);
    expect(ids(journals.entriesAfter('visitor-a'))).toEqual(kept);
    expect(entries(journals.entriesAfter('visitor-a'))).toEqual(kept.map((n) => `request ${n}`));
    expect(ids(journals.entriesAfter('visitor-a', 2))).toEqual(afterTwo);
  });

  it('resumes after the last id a reader saw, neither losing nor repeating', () => {
    const journals = new VisitorJournals<string>(limits);
    for (const n of [1, 2, 3]) journals.record('visitor-a', `request ${n}`);
    expect(entries(journals.entriesAfter('visitor-a', 1))).toEqual(['request 2', 'request 3']);
    expect(journals.entriesAfter('visitor-a', 3)).toEqual([]);
  });

  it('an unknown visitor simply has no entries', () => {
    expect(new VisitorJournals<string>(limits).entriesAfter('nobody-here-yet')).toEqual([]);
  });

  it('shows a visitor none of another visitor’s entries', () => {
    const journals = new VisitorJournals<string>(limits);
    journals.record('visitor-a', 'a request');
    journals.record('visitor-b', 'b request');
    expect(entries(journals.entriesAfter('visitor-b'))).toEqual(['b request']);
  });
});

describe('bounds on visitors', () => {
  it('drops the visitor seen least recently to make room for a new one', () => {
    const journals = new VisitorJournals<string>(limits);
    journals.record('visitor-a', 'a1');
    journals.record('visitor-b', 'b1');
    journals.record('visitor-a', 'a2'); // a is now the more recent
    journals.record('visitor-c', 'c1');
    expect(journals.visitorCount).toBe(2);
    expect(journals.entriesAfter('visitor-b')).toEqual([]);
    expect(entries(journals.entriesAfter('visitor-a'))).toEqual(['a1', 'a2']);
  });

  // Who is least recent after a run of records (visitors a, b, c…; a cap of 2): repeated records of
  // the visitor seen last keep the order as it is, any other record moves its visitor last.
  it.each([
    { records: 'abbc', dropped: 'a', kept: ['b', 'c'] },
    { records: 'abbac', dropped: 'b', kept: ['a', 'c'] },
    { records: 'aabbbac', dropped: 'b', kept: ['a', 'c'] },
    { records: 'abcab', dropped: 'c', kept: ['a', 'b'] },
    { records: 'ababab', dropped: '', kept: ['a', 'b'] },
  ])('records $records: the visitor dropped is "$dropped"', ({ records, dropped, kept }) => {
    const journals = new VisitorJournals<string>(limits);
    for (const visitor of records) journals.record(`visitor-${visitor}`, visitor);
    expect(journals.visitorCount).toBe(2);
    for (const visitor of kept) expect(journals.entriesAfter(`visitor-${visitor}`)).not.toEqual([]);
    if (dropped) expect(journals.entriesAfter(`visitor-${dropped}`)).toEqual([]);
  });

  it('a visitor dropped while it was the one seen last starts a new journal when it returns', () => {
    const journals = new VisitorJournals<string>({ ...limits, visitors: 1 });
    journals.record('visitor-a', 'a1');
    journals.record('visitor-b', 'b1'); // a is dropped
    journals.record('visitor-b', 'b2');
    journals.record('visitor-a', 'a2'); // b is dropped, a comes back with a fresh journal
    expect(journals.visitorCount).toBe(1);
    expect(ids(journals.entriesAfter('visitor-a'))).toEqual([1]);
    expect(entries(journals.entriesAfter('visitor-a'))).toEqual(['a2']);
  });

  it('drops a visitor idle for longer than the limit, but not one with a reader', () => {
    const clock = manualClock();
    const journals = new VisitorJournals<string>({ ...limits, visitors: 10 }, clock.now);
    journals.record('idle-visitor', 'old');
    journals.record('reading-visitor', 'old too');
    const { stop } = journals.subscribe('reading-visitor', { entry: () => {}, end: () => {} });
    clock.advance(limits.idleMs + 1);
    expect(journals.entriesAfter('idle-visitor')).toEqual([]);
    expect(entries(journals.entriesAfter('reading-visitor'))).toEqual(['old too']);
    stop();
    clock.advance(limits.idleMs + 1);
    expect(journals.entriesAfter('reading-visitor')).toEqual([]);
    expect(journals.visitorCount).toBe(0);
  });
  it('looks for idle visitors at most once a second, so one may stay up to a second past its idle time', () => {
    const clock = manualClock();
    const journals = new VisitorJournals<string>({ ...limits, visitors: 10 }, clock.now);
    journals.record('idle-visitor', 'old');
    clock.advance(limits.idleMs - 500);
    journals.record('busy-visitor', 'looked for idle visitors here');
    clock.advance(600); // idle-visitor is now idle for longer than the limit
    expect(entries(journals.entriesAfter('idle-visitor'))).toEqual(['old']);
    clock.advance(400);
    expect(journals.entriesAfter('idle-visitor')).toEqual([]);
  });
});

describe('live readers', () => {
  it('get each new entry of their visitor only, until they stop', () => {
    const journals = new VisitorJournals<string>(limits);
    const seen: Stored<string>[] = [];
    const { stop } = journals.subscribe('visitor-a', { entry: (stored) => seen.push(stored), end: () => {} });
    journals.record('visitor-a', 'first');
    journals.record('visitor-b', 'someone else');
    stop();
    journals.record('visitor-a', 'after stopping');
    expect(seen).toEqual([{ id: 1, entry: 'first' }]);
  });

  it('are ended when their visitor is dropped to make room', () => {
    const journals = new VisitorJournals<string>(limits);
    let ended = false;
    journals.subscribe('visitor-a', { entry: () => {}, end: () => (ended = true) });
    journals.record('visitor-b', 'b');
    journals.record('visitor-c', 'c');
    expect(ended).toBe(true);
  });
});
