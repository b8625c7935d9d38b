import { describe, expect, it } from 'vitest';
import type { BeaconJournal, ErrorBody } from '@origin-lab/contract';
import { apiForFile } from './start-api.js';
import { rawExchange } from '@origin-lab/test-kit';

const api = apiForFile({ flaky: { rate: 0.5, seed: 7 } });

const JSON_TYPE = /^application\/json(;|$)/;

/** What GET /api/beacon lists now. */
async function beaconJournal(): Promise<BeaconJournal> {
  return (await (await fetch(`${api.url}/api/beacon`)).json()) as BeaconJournal;
}

describe('the endpoint table', () => {
  it('GET /api/posts answers 200 with a posts array of seeded posts', async () => {
    const res = await fetch(`${api.url}/api/posts`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(JSON_TYPE);
    const body = (await res.json()) as { posts: { title: string; author: string; tags: string }[] };
    expect(body.posts.length).toBeGreaterThanOrEqual(3);
    for (const post of body.posts) {
      expect(typeof post.title).toBe('string');
      expect(typeof post.author).toBe('string');
      expect(typeof post.tags).toBe('string');
    }
  });

  it('POST /api/posts with multipart form data answers 201 and the post is listed after', async () => {
    const form = new FormData();
    form.set('title', 'From the endpoint test');
    form.set('author', 'Vitest');
    form.set('tags', 'test');
    const res = await fetch(`${api.url}/api/posts`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const list = (await (await fetch(`${api.url}/api/posts`)).json()) as { posts: { title: string }[] };
    expect(list.posts.map((post) => post.title)).toContain('From the endpoint test');
  });

  it('POST /api/posts with a multipart Content-Type without boundary answers 500 naming the boundary', async () => {
    const form = new FormData();
    form.set('title', 'Lost boundary');
    form.set('author', 'Vitest');
    const res = await fetch(`${api.url}/api/posts`, {
      method: 'POST',
      body: form,
      headers: { 'Content-Type': 'multipart/form-data' },
    });
    expect(res.status).toBe(500);
    const body = (await res.json()) as ErrorBody;
    expect(body.error).toEqual(expect.any(String));
    expect(body.detail).toMatch(/boundary/i);
  });

  it('POST /api/beacon answers 202 with a zero-length body, whatever the Content-Type', async () => {
    const contentTypes: Record<string, string>[] = [
      {},
      { 'Content-Type': 'text/plain;charset=UTF-8' },
      { 'Content-Type': 'application/json' },
    ];
    for (const headers of contentTypes) {
      const res = await fetch(`${api.url}/api/beacon`, { method: 'POST', body: '{"a":1,"b":2,"c":3}', headers });
      expect(res.status).toBe(202);
      expect(res.headers.get('content-length')).toBe('0');
      expect(res.headers.get('content-type')).toBeNull();
      const text = await res.text();
      expect(text).toBe('');
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
    }
  });

  it('GET /api/beacon lists what beacons delivered, newest first', async () => {
    await fetch(`${api.url}/api/beacon`, {
      method: 'POST',
      body: 'journal-check',
      headers: { 'Content-Type': 'text/plain' },
    });
    const body = await beaconJournal();
    expect(body.beacons[0]).toMatchObject({ body: 'journal-check', contentType: 'text/plain', bytes: 13 });
  });

  // docs/decisions.md: the last 20 beacons (BEACON_JOURNAL), each with the first 2 KiB of its
  // body, its full size and the Origin it came from.
  it('GET /api/beacon keeps the Origin, the first 2 KiB of a body, and the last 20 beacons', async () => {
    const long = 'x'.repeat(3000);
    await fetch(`${api.url}/api/beacon`, { method: 'POST', body: long, headers: { Origin: 'https://b.localhost' } });
    const [first] = (await beaconJournal()).beacons;
    expect(first).toMatchObject({ origin: 'https://b.localhost', bytes: 3000, body: long.slice(0, 2048) });

    for (let i = 1; i <= 21; i++) await fetch(`${api.url}/api/beacon`, { method: 'POST', body: `beacon ${i}` });
    const { beacons } = await beaconJournal();
    expect(beacons).toHaveLength(20);
    expect(beacons[0]).toMatchObject({ body: 'beacon 21', origin: null });
    expect(beacons[19]).toMatchObject({ body: 'beacon 2' });
  });

  it('GET /api/flaky fails at the configured rate with 500 { error, rate } and otherwise answers 200', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${api.url}/api/flaky`);
      const body = (await res.json()) as ErrorBody;
      statuses.push(res.status);
      expect(body.rate).toBe(0.5);
      if (res.status === 500) expect(body.error).toEqual(expect.any(String));
      else expect(res.status).toBe(200);
    }
    expect(statuses).toContain(500);
    expect(statuses).toContain(200);
  });

  it('GET /api/flaky?rate=1 always fails and ?rate=0 never does', async () => {
    expect((await fetch(`${api.url}/api/flaky?rate=1`)).status).toBe(500);
    expect((await fetch(`${api.url}/api/flaky?rate=0`)).status).toBe(200);
  });

  it.each([
    ['over 1', 'rate=2', /from 0 to 1/, 'got "2"'],
    ['with seven decimals', 'rate=0.1234567', /at most six decimals/, 'got "0.1234567"'],
    ['given twice', 'rate=1&rate=0', /more than once/, expect.stringMatching(/from 0 to 1/)],
  ])('GET /api/flaky with a rate %s: 400 naming the parameter and what it takes', async (_, query, error, detail) => {
    const bad = await fetch(`${api.url}/api/flaky?${query}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.stringMatching(error), parameter: 'rate', detail });
  });

  it('GET /api/slow?ms=N answers after the delay with what it waited', async () => {
    const res = await fetch(`${api.url}/api/slow?ms=30`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ waitedMs: 30 });
  });

  it('GET /api/bad-json answers 200 application/json with a body that does not parse', async () => {
    const res = await fetch(`${api.url}/api/bad-json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(JSON_TYPE);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it.each([
    '/api/nope',
    '/api/',
    '/api',
    '/api/posts/1',
    '/api/ECHO',
    '/api/echo/',
    '/api/upstreamposts',
    '/elsewhere',
    '/lab/nope',
    '/lab/',
    '/lab/STREAM',
  ])('unknown path %s answers 404 { error, path }', async (path) => {
    const res = await fetch(`${api.url}${path}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(JSON_TYPE);
    const body = (await res.json()) as ErrorBody;
    expect(body.error).toEqual(expect.any(String));
    expect(body.path).toBe(path);
  });

  it.each([
    ['DELETE', '/api/posts'],
    ['PUT', '/api/beacon'],
    ['POST', '/api/stream'],
    ['POST', '/api/flaky'],
    ['PATCH', '/api/slow'],
    ['POST', '/api/bad-json'],
    ['POST', '/lab/stream'],
    ['DELETE', '/lab/journal'],
  ])('%s %s answers 405 with Allow and a JSON error', async (method, path) => {
    const res = await fetch(`${api.url}${path}`, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(await res.json()).toMatchObject({
      error: expect.any(String),
      path,
      allowed: expect.arrayContaining(['GET']),
    });
  });

  // The lab's part of the api has no CORS middleware: its 404 carries no CORS answer either.
  it.each([
    ['/api/nope', 'http://allowed.example'],
    ['/elsewhere', 'http://allowed.example'],
    ['/lab/nope', null],
  ])('a 404 for %s from an allowed origin has Access-Control-Allow-Origin %s', async (path, allowOrigin) => {
    const res = await fetch(`${api.url}${path}`, { headers: { Origin: 'http://allowed.example' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe(allowOrigin);
  });

  it('there is no WebSocket route: an upgrade request is answered as plain HTTP, never 101', async () => {
    const res = await rawExchange(
      api.port,
      'GET /api/echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      { halfClose: true },
    );
    expect(res.status).toBe(200);
    expect(res.headers.has('sec-websocket-accept')).toBe(false);
  });
});
