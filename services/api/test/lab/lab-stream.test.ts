import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '@origin-lab/contract';
import { ALLOWED, apiForFile, expectStreamHead } from '../start-api.js';

const api = apiForFile();

/** The whole answer of one connection to the stream lab: it always ends on its own. */
async function connect(query: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${api.url}/lab/stream?interval=10&${query}`, { headers });
  return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
}

/** The records of an event stream: each block's fields, comments left out. */
const records = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) =>
      Object.fromEntries(
        block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      ),
    );

describe('the stream lab: what /api/stream never sends', () => {
  it('by default sends no id: and no retry:, ends each connection after two ticks, and starts at n=1', async () => {
    const { status, type, text } = await connect('of=4');
    expect(status).toBe(200);
    expect(type).toBe('text/event-stream');
    expect(records(text)).toEqual([
      { event: 'tick', data: '{"n":1,"of":4}' },
      { event: 'tick', data: '{"n":2,"of":4}' },
    ]);
  });

  it('sends retry: first when asked', async () => {
    const { text } = await connect('of=1&retry=500');
    expect(records(text)).toEqual([
      { retry: '500' },
      { event: 'tick', data: '{"n":1,"of":1}' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('with id=on, numbers each tick, and a reconnect with Last-Event-ID resumes after it, to done', async () => {
    const first = records((await connect('of=4&id=on')).text);
    expect(first.map((record) => record.id)).toEqual(['1', '2']);
    const resumed = records((await connect('of=4&id=on', { 'Last-Event-ID': '2' })).text);
    expect(resumed).toEqual([
      { id: '3', event: 'tick', data: '{"n":3,"of":4}' },
      { id: '4', event: 'tick', data: '{"n":4,"of":4}' },
      { event: 'done', data: '{}' },
    ]);
  });

  it.each([
    ['not a number', 'abc'],
    ['past the run', '9'],
    ['zero', '0'],
  ])('starts again at n=1 for a Last-Event-ID it does not know (%s)', async (_, lastEventId) => {
    const [first] = records((await connect('of=4&id=on', { 'Last-Event-ID': lastEventId })).text);
    expect(first?.id).toBe('1');
  });

  it.each([
    ['204', 204, null, ''],
    ['text', 200, 'text/plain; charset=utf-8', 'not an event stream: the browser stops reconnecting\n'],
  ])(
    'answers a reconnect with reconnect=%s as asked, and a first connection as a stream',
    async (how, status, type, body) => {
      const reconnect = await connect(`of=4&id=on&reconnect=${how}`, { 'Last-Event-ID': '2' });
      expect(reconnect).toEqual({ status, type, text: body });
      const opening = await connect(`of=4&id=on&reconnect=${how}`);
      expect(opening.type).toBe('text/event-stream');
    },
  );

  it.each([
    ['an unknown name', 'count=3', 'count'],
    ['of over the limit', 'of=51', 'of'],
    ['per of zero', 'per=0', 'per'],
    ['an interval too short', 'interval=1', 'interval'],
    ['an interval too long', 'interval=5001', 'interval'],
    ['a retry too long', 'retry=60001', 'retry'],
    ['id not on or off', 'id=yes', 'id'],
    ['an unknown reconnect answer', 'reconnect=301', 'reconnect'],
  ])('refuses %s: 400 naming the parameter', async (_, query, parameter) => {
    const answer = await fetch(`${api.url}/lab/stream?${query}`);
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as ErrorBody;
    expect(body.parameter).toBe(parameter);
    expect(body.error).toMatch(parameter);
  });

  it("HEAD: the stream's headers at once, not after the run (here 50 ticks 5 s apart)", async () => {
    await expectStreamHead(api, '/lab/stream?of=50&per=50&interval=5000');
  });

  it('is same origin only: no CORS headers, even for an allowed origin', async () => {
    const answer = await fetch(`${api.url}/lab/stream?interval=10&of=1`, { headers: { Origin: ALLOWED } });
    await answer.text();
    expect(answer.status).toBe(200);
    expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});
