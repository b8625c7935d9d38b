import type { ServerResponse } from 'node:http';

/** One server-sent event record: an event line, a data line, and the blank line that dispatches it. */
export function sseRecord<Records extends object, Event extends keyof Records & string = keyof Records & string>(
  event: Event,
  data: Records[Event],
): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, but it makes every engine fire open at once. */
export function sseComment(text: string): string {
  return `: ${text.replace(/\n/g, ' ')}\n\n`;
}

/**
 * Starts an event stream on the raw response: unbuffered (X-Accel-Buffering for proxies that
 * would hold it) and never transformed or cached on the way. A HEAD request gets those headers
 * alone and at once: the response is ended, and false says there is no stream to write to (Node
 * drops a HEAD response's body, so its headers would wait for an end that a stream may never reach).
 */
export function openEventStream(res: ServerResponse): boolean {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
  });
  if (res.req.method !== 'HEAD') return true;
  res.end();
  return false;
}

/** Open streams, each with a function that ends it; used by a graceful stop. */
export type OpenStreams = Set<() => void>;

/**
 * Holds an open event stream until it ends, once: by the handler, by a graceful stop (through
 * open), or by the client going away. The one pending timer is cleared then, so nothing writes
 * to a closed response.
 */
export function holdStream(
  res: ServerResponse,
  open: OpenStreams,
): { later: (next: () => void, ms: number) => void; finish: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    clearTimeout(timer);
    open.delete(finish);
    if (!res.writableEnded) res.end();
  };
  open.add(finish);
  // on, not once: finish runs safely more than once, and once would wrap it in a bound function
  // and a state object that every open stream keeps for its whole life.
  res.on('close', finish);
  return { later: (next, ms) => (timer = setTimeout(next, ms)), finish };
}
