import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import type { StreamRecords } from '@origin-lab/contract';
import { openConnections, pollUntil } from '@origin-lab/test-kit';
import { ALLOWED, apiForFile, startApi } from './start-api.js';

const api = apiForFile({ streamIntervalMs: 10 });

interface SseRecord {
  event?: string;
  data?: string;
  id?: string;
  retry?: string;
  comment?: string;
}

/** Splits an event stream into records by its own grammar: lines, and a blank line that ends each record. */
function parseRecords(text: string): SseRecord[] {
  const records: SseRecord[] = [];
  let current: SseRecord = {};
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (Object.keys(current).length > 0) records.push(current);
      current = {};
      continue;
    }
    if (line.startsWith(':')) {
      current.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = line.slice(0, colon) as keyof SseRecord;
    current[field] = line.slice(colon + 1).replace(/^ /, '');
  }
  return records;
}

function getRaw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ res: http.IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${api.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('stream did not end')));
  });
}

describe('GET /api/stream as raw bytes', () => {
  it('is 200 text/event-stream, UTF-8, ticks 1..N then done, then the end, with no id: or retry:', async () => {
    const { res, body } = await getRaw('/api/stream?count=4');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['content-encoding']).toBeUndefined();
    // Nothing between here and the browser may hold or rewrite records (docs/decisions.md).
    expect(res.headers['cache-control']).toBe('no-cache, no-transform');
    expect(res.headers['x-accel-buffering']).toBe('no');
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    expect(text).not.toMatch(/^(id|retry):/m);

    const records = parseRecords(text);
    const [first, ...events] = records;
    expect(first?.comment).toBeDefined();
    expect(events.map((record) => record.event)).toEqual(['tick', 'tick', 'tick', 'tick', 'done']);
    expect(events.slice(0, 4).map((record) => JSON.parse(record.data ?? ''))).toEqual([
      { n: 1, of: 4 },
      { n: 2, of: 4 },
      { n: 3, of: 4 },
      { n: 4, of: 4 },
    ]);
    expect(JSON.parse(events[4]?.data ?? '')).toEqual({});
    // Every record is event line, data line, blank line.
    expect(text).toMatch(/event: done\ndata: \{\}\n\n$/);
  });

  it('uses the default count when none is given', async () => {
    const { body } = await getRaw('/api/stream');
    const ticks = parseRecords(body.toString()).filter((record) => record.event === 'tick');
    expect(ticks).toHaveLength(5);
    expect(JSON.parse(ticks[0]?.data ?? '')).toEqual({ n: 1, of: 5 });
  });

  it('is not compressed even when the client asks for it', async () => {
    const { res } = await getRaw('/api/stream?count=1', { 'Accept-Encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('carries the CORS answer for an allowed origin', async () => {
    const { res } = await getRaw('/api/stream?count=1', { Origin: ALLOWED });
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it.each(['0', '-1', 'abc', '1.5', '121', '99999999999999999999', ''])(
    'count=%s answers 400 naming count',
    async (count) => {
      const res = await fetch(`${api.url}/api/stream?count=${count}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ error: expect.stringContaining('count'), parameter: 'count' });
    },
  );
});

describe('GET /api/stream through a real SSE client', () => {
  it('delivers tick events then done; the client closes on done', async () => {
    const source = new EventSource(`${api.url}/api/stream?count=3`);
    const seen: unknown[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no done event')), 10_000);
        source.addEventListener('tick', (event) => seen.push(JSON.parse(event.data)));
        source.addEventListener('done', (event) => {
          seen.push({ done: JSON.parse(event.data) });
          clearTimeout(timer);
          resolve();
        });
      });
    } finally {
      source.close();
    }
    expect(seen).toEqual([{ n: 1, of: 3 }, { n: 2, of: 3 }, { n: 3, of: 3 }, { done: {} }]);
    expect(source.readyState).toBe(EventSource.CLOSED);
  });

  it('reconnects when the page does not close on done, and the run starts again at n=1', async () => {
    const source = new EventSource(`${api.url}/api/stream?count=1`);
    const ticks: number[] = [];
    let errors = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${ticks.length} ticks`)), 15_000);
        source.addEventListener('error', () => errors++);
        source.addEventListener('tick', (event) => {
          ticks.push((JSON.parse(event.data) as StreamRecords['tick']).n);
          if (ticks.length === 2) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    } finally {
      source.close();
    }
    expect(ticks).toEqual([1, 1]);
    expect(errors).toBeGreaterThanOrEqual(1);
  });
});

describe('clients that leave mid-stream', () => {
  it('leave no timer, stream or socket behind', async () => {
    const slowApi = await startApi({ streamIntervalMs: 1_000 });
    try {
      const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
      const requests = Array.from({ length: 50 }, () => {
        const req = http.get(`${slowApi.url}/api/stream?count=100`);
        req.on('error', () => {});
        return new Promise<http.ClientRequest>((resolve) =>
          req.on('response', (res) => res.once('data', () => resolve(req))),
        );
      });
      const open = await Promise.all(requests);
      expect(slowApi.app.openStreamCount()).toBe(50);

      for (const req of open) req.destroy();
      await pollUntil(
        'the stream timers to be cleared',
        () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length <= timersBefore,
        { timeoutMs: 5_000 },
      );
      await pollUntil('the server to hold no connection', async () => (await openConnections(slowApi.server)) === 0, {
        timeoutMs: 5_000,
      });
      expect(slowApi.app.openStreamCount()).toBe(0);
    } finally {
      await slowApi.stop();
    }
  });
});
