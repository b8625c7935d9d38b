import type http2 from 'node:http2';
import { exchange, readEventStream, type Answer, type Connection, type EventStream, type Exchange } from './h2.js';
import type { Tally } from './tally.js';

export interface StudentSettings {
  /** Longest wait for any one answer before it counts as wrong. */
  timeoutMs: number;
  /** ms asked of /api/slow; only the time past it counts as latency. */
  slowMs: number;
  /** Ticks asked of each /api/stream. */
  streamTicks: number;
}

/**
 * One simulated student with one page open: a visitor token, an HTTP/2 connection to each of
 * the two names (as a browser holds), and the page's journal stream. Each round does what the
 * pages do, and every answer is checked against SPEC.md: reads on both origins, a preflighted
 * POST, a post, a beacon, the proxy, flaky and slow calls, and two EventSources. At the end,
 * every request must also have reached the visitor's journal.
 */
export class Student {
  private sent = 0;
  private readonly marks = new Set<string>();
  private readonly journaled = new Set<string>();
  private closeJournal = () => {};
  private journalDone: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly token: string,
    private readonly own: Connection,
    private readonly other: Connection,
    private readonly tally: Tally,
    private readonly settings: StudentSettings,
  ) {}

  /** Opens the journal stream, as every page does; each entry's mark is noted. */
  openJournal(): void {
    const reading = readEventStream(this.own, `/lab/journal?visitor=${this.token}`, {}, 24 * 3_600_000, (record) => {
      const mark = /(?:^|&)mark=([^&]+)/.exec((JSON.parse(record.data) as { query: string }).query)?.[1];
      if (mark) this.journaled.add(mark);
    });
    this.closeJournal = reading.close;
    this.journalDone = reading.done.catch((err: Error) => this.tally.record('journal stream', err.message));
  }

  /** One round of the pages' traffic; resolves when every answer of it is in. */
  async round(): Promise<void> {
    const self = this.own.origin;
    const cross = { origin: self };
    const streams = Promise.all([
      this.stream('EventSource, same origin', this.own, {}, null),
      this.stream('EventSource, cross-origin', this.other, cross, self),
    ]);

    await this.check('GET /api/posts, same origin', this.own, { method: 'GET', path: '/api/posts' }, (answer) =>
      postsList(answer),
    );
    await this.check(
      'GET /api/posts, cross-origin',
      this.other,
      { method: 'GET', path: '/api/posts', headers: cross },
      (answer) => allowedFor(answer, self) ?? postsList(answer),
    );
    await this.check(
      'preflight OPTIONS /api/echo',
      this.other,
      {
        method: 'OPTIONS',
        path: '/api/echo',
        headers: {
          ...cross,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      },
      (answer) => preflightAnswer(answer, self),
    );
    const json = JSON.stringify({ student: this.token, n: this.sent });
    await this.check(
      'POST /api/echo (JSON, preflighted)',
      this.other,
      { method: 'POST', path: '/api/echo', headers: { ...cross, 'content-type': 'application/json' }, body: json },
      (answer) => allowedFor(answer, self) ?? echoOf(answer, 'POST', 'json', json),
    );
    const boundary = `----class-${this.token}`;
    await this.check(
      'POST /api/posts (multipart)',
      this.own,
      {
        method: 'POST',
        path: '/api/posts',
        headers: { ...cross, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: multipart(boundary, { title: `Round ${this.sent} of ${this.token}`, author: 'a student' }),
      },
      (answer) => (answer.status === 201 ? null : `status ${answer.status}, not 201: ${answer.body.slice(0, 200)}`),
    );
    await this.check(
      'POST /api/beacon',
      this.other,
      {
        method: 'POST',
        path: '/api/beacon',
        headers: { ...cross, 'content-type': 'text/plain;charset=UTF-8' },
        body: 'left',
      },
      (answer) =>
        answer.status !== 202
          ? `status ${answer.status}, not 202`
          : answer.body !== ''
            ? `a body of ${answer.body.length} characters, not an empty one`
            : null,
    );
    await this.check(
      'GET /api/upstream/tags (the proxy)',
      this.own,
      { method: 'GET', path: '/api/upstream/tags' },
      (answer) =>
        answer.status !== 200
          ? `status ${answer.status}, not 200`
          : Array.isArray(parse<{ tags?: unknown }>(answer.body)?.tags)
            ? null
            : 'no tags array',
    );
    await this.check(
      'GET /api/flaky, cross-origin',
      this.other,
      { method: 'GET', path: '/api/flaky', headers: cross },
      (answer) => allowedFor(answer, self) ?? flakyAnswer(answer),
    );
    const slow = this.settings.slowMs;
    await this.check(
      `GET /api/slow?ms=${slow}`,
      this.own,
      { method: 'GET', path: `/api/slow?ms=${slow}` },
      (answer) =>
        answer.status !== 200
          ? `status ${answer.status}, not 200`
          : answer.ms < slow
            ? `answered after ${answer.ms.toFixed(0)} ms, before the ${slow} ms asked`
            : null,
      slow,
    );
    await streams;
  }

  /** Waits (up to graceMs) for the journal to have an entry for every request sent; each missing one is wrong. */
  async finish(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.journaled.size < this.marks.size && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const missing = [...this.marks].filter((mark) => !this.journaled.has(mark));
    this.tally.record(
      'the visitor journal',
      missing.length === 0 ? null : `${missing.length} of ${this.marks.size} requests never reached the journal stream`,
    );
    this.closeJournal();
    await this.journalDone;
  }

  /** The path with this visitor's token and a fresh mark, as a page sends it. */
  private tagged(path: string): string {
    const mark = `${this.token}-${this.sent++}`;
    this.marks.add(mark);
    return `${path}${path.includes('?') ? '&' : '?'}visitor=${this.token}&mark=${mark}`;
  }

  private async check(
    what: string,
    connection: Connection,
    request: Exchange,
    judge: (answer: Answer) => string | null,
    expectedWaitMs = 0,
  ): Promise<void> {
    try {
      const answer = await exchange(
        connection,
        { ...request, path: this.tagged(request.path) },
        this.settings.timeoutMs,
      );
      this.tally.record(what, judge(answer), Math.max(0, answer.ms - expectedWaitMs));
    } catch (err) {
      this.tally.record(what, (err as Error).message);
    }
  }

  private async stream(
    what: string,
    connection: Connection,
    headers: Record<string, string>,
    allowed: string | null,
  ): Promise<void> {
    const ticks = this.settings.streamTicks;
    // Ticks come about a second apart: the stream takes that long, plus the usual bound.
    const reading = readEventStream(
      connection,
      this.tagged(`/api/stream?count=${ticks}`),
      headers,
      ticks * 1_000 + this.settings.timeoutMs,
    );
    try {
      const stream = await reading.done;
      this.tally.record(
        what,
        (allowed === null ? null : allowedFor(stream, allowed)) ?? ticksThenDone(stream, ticks),
        stream.headersMs,
      );
    } catch (err) {
      this.tally.record(what, (err as Error).message);
    }
  }
}

type Answered = { status: number; headers: http2.IncomingHttpHeaders };

function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** SPEC.md, cross-origin rule 1: the exact origin, and Vary: Origin. */
function allowedFor(answer: Answered, origin: string): string | null {
  const allowed = answer.headers['access-control-allow-origin'];
  if (allowed !== origin) return `Access-Control-Allow-Origin ${String(allowed)}, not ${origin}`;
  if (!/\borigin\b/i.test(String(answer.headers.vary ?? ''))) return 'no Vary: Origin';
  return null;
}

function postsList(answer: Answer): string | null {
  if (answer.status !== 200) return `status ${answer.status}, not 200`;
  if (!String(answer.headers['content-type']).startsWith('application/json')) return 'not application/json';
  return Array.isArray(parse<{ posts?: unknown }>(answer.body)?.posts) ? null : 'no posts array';
}

/** SPEC.md, cross-origin rule 3: 204, no body, and the five headers. */
function preflightAnswer(answer: Answer, origin: string): string | null {
  if (answer.status !== 204) return `status ${answer.status}, not 204`;
  if (answer.body !== '') return 'a body';
  const header = (name: string) => String(answer.headers[name] ?? '');
  if (!/\bPOST\b/.test(header('access-control-allow-methods'))) return 'POST not in Access-Control-Allow-Methods';
  if (!/\bcontent-type\b/i.test(header('access-control-allow-headers')))
    return 'Content-Type not in Access-Control-Allow-Headers';
  if (header('access-control-max-age') !== '86400') return `Access-Control-Max-Age ${header('access-control-max-age')}`;
  return allowedFor(answer, origin);
}

/** SPEC.md, echo: the method, the body as text and its bodyKind come back. */
function echoOf(answer: Answer, method: string, bodyKind: string, body: string): string | null {
  if (answer.status !== 200) return `status ${answer.status}, not 200`;
  const reflection = parse<{ method?: string; bodyKind?: string; body?: string }>(answer.body);
  if (reflection?.method !== method) return `method ${reflection?.method}, not ${method}`;
  if (reflection.bodyKind !== bodyKind) return `bodyKind ${reflection.bodyKind}, not ${bodyKind}`;
  return reflection.body === body ? null : 'the body came back changed';
}

/** SPEC.md: 500 with { error, rate } on a failing call; a success is 200. */
function flakyAnswer(answer: Answer): string | null {
  if (answer.status === 200) return null;
  if (answer.status !== 500) return `status ${answer.status}, neither 200 nor 500`;
  const failure = parse<{ error?: unknown; rate?: unknown }>(answer.body);
  return typeof failure?.error === 'string' && typeof failure.rate === 'number' ? null : 'a 500 without error and rate';
}

/** SPEC.md, stream rules: 200, text/event-stream, ticks 1..count of count, then done, then the end. */
function ticksThenDone(stream: EventStream, count: number): string | null {
  if (stream.status !== 200) return `status ${stream.status}, not 200`;
  if (!String(stream.headers['content-type']).startsWith('text/event-stream')) return 'not text/event-stream';
  const expected = [
    ...Array.from({ length: count }, (_, i) => `tick ${JSON.stringify({ n: i + 1, of: count })}`),
    'done {}',
  ];
  const seen = stream.events.map((event) => `${event.event} ${JSON.stringify(parse(event.data))}`);
  if (seen.join('|') !== expected.join('|')) return `records ${seen.join(', ')}; expected ${expected.join(', ')}`;
  return stream.ended ? null : 'the stream did not end after done';
}

function multipart(boundary: string, fields: Record<string, string>): string {
  return (
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}--\r\n`
  );
}
