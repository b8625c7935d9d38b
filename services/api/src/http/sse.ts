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
 * would hold it) and never transformed or cached on the way.
 */
export function openEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
  });
}
