import http2 from 'node:http2';
import { createParser } from 'eventsource-parser';

/** One HTTP/2 connection to an origin of the front, as a browser tab holds one per origin. */
export interface Connection {
  origin: string;
  session: http2.ClientHttp2Session;
}

/** Connects to https://<name>:port on 127.0.0.1 (the names are local), trusting only the given CA. */
export function connect(origin: string, ca: Buffer, timeoutMs: number): Promise<Connection> {
  const { hostname } = new URL(origin);
  return new Promise((resolve, reject) => {
    const session = http2.connect(origin, { host: '127.0.0.1', servername: hostname, ca });
    const timer = setTimeout(() => {
      session.destroy();
      reject(new Error(`no HTTP/2 connection to ${origin} within ${timeoutMs} ms`));
    }, timeoutMs);
    session.once('connect', () => {
      clearTimeout(timer);
      // A failed stream must never become an unhandled error of the whole process.
      session.on('error', () => {});
      resolve({ origin, session });
    });
    session.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

export interface Exchange {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
  /** From sending the request to the last byte of the answer. */
  ms: number;
}

/** One request and its whole answer; rejects past timeoutMs. */
export function exchange(connection: Connection, request: Exchange, timeoutMs: number): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const stream = connection.session.request({
      ':method': request.method,
      ':path': request.path,
      ...request.headers,
    });
    const timer = setTimeout(() => {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    let status = 0;
    let headers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (received) => {
      status = Number(received[':status']);
      headers = received;
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      clearTimeout(timer);
      resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started });
    });
    stream.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    stream.end(request.body);
  });
}

export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
}

export interface EventStream {
  status: number;
  headers: http2.IncomingHttpHeaders;
  events: StreamEvent[];
  /** From sending the request to the answer's headers. */
  headersMs: number;
  /** Whether the server ended the stream (rather than the timeout). */
  ended: boolean;
}

/**
 * Reads an event stream (text/event-stream) to its end, handing each record to onEvent as it
 * arrives; rejects when no headers come within timeoutMs, and closes it at timeoutMs regardless.
 * close() ends it early (a page closing its EventSource).
 */
export function readEventStream(
  connection: Connection,
  path: string,
  headers: Record<string, string>,
  timeoutMs: number,
  onEvent: (event: StreamEvent) => void = () => {},
): { done: Promise<EventStream>; close: () => void } {
  const started = performance.now();
  const stream = connection.session.request({
    ':method': 'GET',
    ':path': path,
    accept: 'text/event-stream',
    ...headers,
  });
  stream.end();
  const close = () => stream.close(http2.constants.NGHTTP2_CANCEL);
  const done = new Promise<EventStream>((resolve, reject) => {
    const result: EventStream = { status: 0, headers: {}, events: [], headersMs: NaN, ended: false };
    let settled = false;
    const timer = setTimeout(() => {
      if (result.status === 0) {
        settled = true;
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }
      close();
    }, timeoutMs);
    // The stream's records as an EventSource reads them.
    const parser = createParser({
      onEvent: ({ event, data, id }) => {
        const record: StreamEvent = { event: event ?? 'message', data, ...(id === undefined ? {} : { id }) };
        result.events.push(record);
        onEvent(record);
      },
    });
    stream.setEncoding('utf8');
    stream.on('response', (received) => {
      result.status = Number(received[':status']);
      result.headers = received;
      result.headersMs = performance.now() - started;
    });
    stream.on('data', (chunk: string) => parser.feed(chunk));
    const finish = (ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      result.ended = ended;
      resolve(result);
    };
    stream.on('end', () => finish(true));
    stream.on('close', () => finish(false));
    stream.on('error', (err) => {
      if (result.status !== 0) return finish(false);
      settled = true;
      clearTimeout(timer);
      reject(err);
    });
  });
  return { done, close };
}
