import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JournalPage } from '@origin-lab/contract';
import { pollUntil } from '@origin-lab/test-kit';
import { ALLOWED, apiForFile, expectStreamHead } from '../start-api.js';
import { readJournalOf } from './read-journal.js';

const api = apiForFile({
  journal: { entriesPerVisitor: 50, visitors: 100, idleSeconds: 600, streamBufferBytes: 4_096, keepAliveMs: 15_000 },
});

const newVisitor = () => randomBytes(16).toString('base64url');
const readJournal = (visitor: string, count: number, headers: Record<string, string> = {}) =>
  readJournalOf(api.url, visitor, count, headers);

describe('the visitor journal records what the api handled', () => {
  it('a cross-origin read: method, path, query without the token, origin, status, CORS answer, bytes', async () => {
    const visitor = newVisitor();
    const answer = await fetch(`${api.url}/api/posts?cors=on&visitor=${visitor}`, { headers: { Origin: ALLOWED } });
    const body = await answer.arrayBuffer();
    const [first] = await readJournal(visitor, 1);
    expect(first!.id).toBe(1);
    expect(first!.entry).toMatchObject({
      method: 'GET',
      path: '/api/posts',
      query: 'cors=on',
      origin: ALLOWED,
      status: 200,
      preflight: false,
      httpVersion: 'HTTP/1.1',
      bodyKind: 'none',
      bytesOut: body.byteLength,
      cors: { 'access-control-allow-origin': ALLOWED },
    });
  });

  it('a preflight, allowed and refused, with what it asked and what it was answered', async () => {
    const visitor = newVisitor();
    const preflight = (origin: string) =>
      fetch(`${api.url}/api/echo?visitor=${visitor}`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
    expect((await preflight(ALLOWED)).status).toBe(204);
    expect((await preflight('https://evil.example')).status).toBe(403);
    const [allowed, refused] = await readJournal(visitor, 2);
    expect(allowed!.entry).toMatchObject({
      method: 'OPTIONS',
      preflight: true,
      status: 204,
      accessControlRequest: { method: 'POST', headers: 'content-type' },
      cors: { 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-max-age': '86400' },
    });
    expect(refused!.entry).toMatchObject({ preflight: true, status: 403, origin: 'https://evil.example', cors: null });
  });

  it('cors=off: handled with 200, answered with no CORS headers at all', async () => {
    const visitor = newVisitor();
    await (await fetch(`${api.url}/api/posts?cors=off&visitor=${visitor}`, { headers: { Origin: ALLOWED } })).text();
    const [entry] = await readJournal(visitor, 1);
    expect(entry!.entry).toMatchObject({ status: 200, cors: null, query: 'cors=off' });
  });

  it('keeps whether Cookie and Authorization were sent and the cookies’ names, never their values; cuts long values', async () => {
    const visitor = newVisitor();
    const long = 'x'.repeat(1_000);
    await (
      await fetch(`${api.url}/api/echo?long=${long}&visitor=${visitor}`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer secret-bearer-value',
          Cookie: 'session=secret-cookie-value; theme=secret-theme-value',
          'Content-Type': 'application/json',
          'Sec-Fetch-Storage-Access': 'none',
        },
        body: '{"a":1}',
      })
    ).text();
    const [entry] = await readJournal(visitor, 1);
    const text = JSON.stringify(entry);
    expect(text).not.toContain('secret-bearer-value');
    expect(text).not.toContain('secret-cookie-value');
    expect(text).not.toContain('secret-theme-value');
    expect(entry!.entry).toMatchObject({
      credentials: { cookie: true, authorization: true, cookieNames: ['session', 'theme'] },
      secFetch: { storageAccess: 'none' },
      bodyKind: 'json',
      bytesIn: 7,
    });
    expect(entry!.entry.query.length).toBe(256);
    expect(entry!.entry.query.endsWith('…')).toBe(true);
  });

  it('keeps at most 16 cookie names, each cut at 64 characters, and skips a pair without a name', async () => {
    const visitor = newVisitor();
    const many = Array.from({ length: 20 }, (_, n) => `c${n}=v`).join('; ');
    await (
      await fetch(`${api.url}/api/posts?visitor=${visitor}`, {
        headers: { Cookie: `${'n'.repeat(100)}=v; novalue; ${many}` },
      })
    ).text();
    const [entry] = await readJournal(visitor, 1);
    const names = entry!.entry.credentials.cookieNames;
    expect(names).toHaveLength(16);
    expect(names[0]).toBe(`${'n'.repeat(63)}…`);
    expect(names.slice(1, 3)).toEqual(['c0', 'c1']);
  });

  it('keeps the opener policy an answer sent and the names of the cookies it set, never a value', async () => {
    const visitor = newVisitor();
    const authorize = (coop: string) =>
      new URLSearchParams({
        client_id: 'origin-lab',
        redirect_uri: `${ALLOWED}/lab/idp-callback`,
        state: 's',
        sign_in: 'auto',
        coop,
        visitor,
      });
    // The provider signs a visitor without a session in at once: a session cookie with its answer.
    for (const coop of ['same-origin', 'report-only'])
      await (await fetch(`${api.url}/lab/idp/authorize?${authorize(coop)}`, { redirect: 'manual' })).text();
    await (await fetch(`${api.url}/api/posts?visitor=${visitor}`)).text();
    const entries = (await readJournal(visitor, 3)).map((item) => item.entry);
    expect(entries[0]).toMatchObject({
      openerPolicy: { enforced: 'same-origin', reportOnly: null },
      setCookies: ['idp_session'],
    });
    expect(entries[1]!.openerPolicy).toEqual({ enforced: null, reportOnly: 'same-origin' });
    expect(JSON.stringify(entries)).not.toMatch(/student-[0-9a-f]{16}/);
    expect(entries[2]).not.toHaveProperty('openerPolicy');
    expect(entries[2]).not.toHaveProperty('setCookies');
  });

  it('shows a visitor none of another visitor’s entries, and records requests without a token for nobody', async () => {
    const first = newVisitor();
    const second = newVisitor();
    await (await fetch(`${api.url}/api/flaky?rate=0&visitor=${first}`)).text();
    await (await fetch(`${api.url}/api/flaky?rate=0`)).text();
    await (await fetch(`${api.url}/api/bad-json?visitor=${second}`)).text();
    const seen = await readJournal(second, 1);
    expect(seen.map((item) => item.entry.path)).toEqual(['/api/bad-json']);
    // An unknown visitor simply has no entries yet: the stream opens and stays quiet.
    const quiet = await fetch(`${api.url}/lab/journal?visitor=${newVisitor()}`, { signal: AbortSignal.timeout(2_000) });
    expect(quiet.status).toBe(200);
    await quiet.body?.cancel();
  });

  it('resumes after Last-Event-ID with exactly the entries missed', async () => {
    const visitor = newVisitor();
    for (const n of [1, 2, 3]) await (await fetch(`${api.url}/api/slow?ms=${n}&visitor=${visitor}`)).text();
    const resumed = await readJournal(visitor, 2, { 'Last-Event-ID': '1' });
    expect(resumed.map((item) => [item.id, item.entry.query])).toEqual([
      [2, 'ms=2'],
      [3, 'ms=3'],
    ]);
  });
});

describe('the journal stream refuses bad input and other origins', () => {
  it.each([
    ['no token', ''],
    ['a token too short', '?visitor=abc'],
    ['a token with characters outside base64url', `?visitor=${'a'.repeat(20)}%2F`],
    ['two tokens', `?visitor=${'a'.repeat(20)}&visitor=${'b'.repeat(20)}`],
  ])('%s: 400 naming the parameter', async (_case, query) => {
    const answer = await fetch(`${api.url}/lab/journal${query}`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ parameter: 'visitor', error: expect.stringContaining('visitor') });
  });

  it('after given twice: 400 naming it, not a journal from the start', async () => {
    const answer = await fetch(`${api.url}/lab/journal?visitor=${newVisitor()}&after=1&after=2`, {
      headers: { Accept: 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ parameter: 'after', error: expect.stringContaining('more than once') });
  });

  it('a Last-Event-ID that is not a number: 400', async () => {
    const answer = await fetch(`${api.url}/lab/journal?visitor=${newVisitor()}`, {
      headers: { 'Last-Event-ID': 'x1' },
    });
    expect(answer.status).toBe(400);
  });

  it('answers another origin without any CORS permission, and a POST with 405', async () => {
    const answer = await fetch(`${api.url}/lab/journal?visitor=${newVisitor()}`, {
      headers: { Origin: ALLOWED },
      signal: AbortSignal.timeout(2_000),
    });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    await answer.body?.cancel();
    const post = await fetch(`${api.url}/lab/journal?visitor=${newVisitor()}`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it("HEAD: the stream's headers at once, with no body and no stream left open", async () => {
    await expectStreamHead(api, `/lab/journal?visitor=${newVisitor()}`);
  });

  it('ends the stream of a reader that stops reading, instead of buffering for it', async () => {
    const visitor = newVisitor();
    const socket = net.connect(api.port, '127.0.0.1');
    socket.pause(); // Never reads: the kernel's buffers fill, then the server's.
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /lab/journal?visitor=${visitor} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await pollUntil('the journal stream to open', () => api.app.openStreamCount() === 1, { timeoutMs: 5_000 });
    const long = 'y'.repeat(240);
    // Every header the journal keeps, at its longest: entries of about 2 KB, so that filling the
    // loopback buffers (megabytes) takes about a thousand requests, not five, on a busy machine.
    const kept = ['accept', 'content-type', 'access-control-request-headers', 'last-event-id'];
    const fetchMetadata = ['mode', 'site', 'dest', 'storage-access'].map((name) => `sec-fetch-${name}`);
    const padded: Record<string, string> = {
      ...Object.fromEntries([...kept, ...fetchMetadata].map((name) => [name, long])),
      cookie: Array.from({ length: 16 }, (_, n) => `${n}${'c'.repeat(63)}=1`).join('; '),
    };
    try {
      await pollUntil(
        'the server to end the stalled stream',
        async () => {
          await Promise.all(
            Array.from({ length: 50 }, () =>
              fetch(`${api.url}/api/echo?a=${long}&visitor=${visitor}`, { headers: padded }).then((r) =>
                r.arrayBuffer(),
              ),
            ),
          );
          return api.app.openStreamCount() === 0;
        },
        { timeoutMs: 50_000, intervalMs: 1 },
      );
    } finally {
      socket.destroy();
    }
  }, 60_000);
});

describe('the journal for a reader that polls (Accept: application/json)', () => {
  it('answers the entries after ?after= at once, as JSON', async () => {
    const visitor = newVisitor();
    for (const n of [1, 2]) await (await fetch(`${api.url}/api/slow?ms=${n}&visitor=${visitor}`)).text();
    const all = await fetch(`${api.url}/lab/journal?visitor=${visitor}`, { headers: { Accept: 'application/json' } });
    expect(all.headers.get('cache-control')).toBe('no-store');
    const { entries } = (await all.json()) as JournalPage;
    expect(entries.map((item) => item.id)).toEqual([1, 2]);
    const later = await fetch(`${api.url}/lab/journal?visitor=${visitor}&after=1`, {
      headers: { Accept: 'application/json' },
    });
    expect(((await later.json()) as JournalPage).entries.map((item) => item.entry.query)).toEqual(['ms=2']);
  });
});
