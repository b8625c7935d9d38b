/**
 * One SSE load process, forked by the SSE benchmark: opens `streams` connections to
 * GET /api/stream?count=<ticks> over raw sockets, reads the records, and reports per tick how
 * late it arrived against the stream's schedule. The server schedules tick n at start + (n-1)
 * intervals; the client estimates start as the earliest arrival minus its offset, so the most
 * punctual tick of a stream counts as 0 ms late and every other tick is measured from it. One process per
 * ~10,000 sockets: a process cannot hold more than its open-files limit (20,000 here).
 *
 * Messages to the parent: { type: 'open', streams } once every stream has its first tick,
 * then { type: 'result', ... } when every stream has ended.
 */
import net from 'node:net';

interface Job {
  port: number;
  streams: number;
  ticks: number;
  intervalMs: number;
  /** Connections started per 10 ms step while ramping up. */
  batch: number;
}

const job = JSON.parse(process.env.SSE_CLIENT_JOB ?? '{}') as Job;
const lateness = new Float64Array(job.streams * Math.max(0, job.ticks - 1));
/** When each lateness figure's tick arrived, in ms since the epoch, to tell ramp-up from steady state. */
const arrivedAt = new Float64Array(lateness.length);
let latenessCount = 0;
let opened = 0;
let firstTicks = 0;
let held = 0;
let failed = 0;
let ended = 0;
let ticksReceived = 0;
let openReported = false;
const errors = new Map<string, number>();

function openStream(): void {
  const socket = net.connect({ port: job.port, host: '127.0.0.1' });
  let text = '';
  let status = 0;
  let firstTickAt = -1;
  const arrivals = new Float64Array(job.ticks);
  let received = 0;
  let done = false;
  socket.setEncoding('utf8');
  socket.on('connect', () => {
    opened += 1;
    socket.write(
      `GET /api/stream?count=${job.ticks} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nOrigin: https://a.localhost\r\n\r\n`,
    );
  });
  socket.on('data', (chunk: string) => {
    const now = performance.now();
    text += chunk;
    if (status === 0) {
      const headerEnd = text.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      status = Number(text.slice(9, 12));
      text = text.slice(headerEnd + 4);
    }
    let recordEnd: number;
    while ((recordEnd = text.indexOf('\n\n')) !== -1) {
      const record = text.slice(0, recordEnd);
      text = text.slice(recordEnd + 2);
      // Chunked framing lines (size in hex) may sit before a record: find the event line anywhere.
      if (record.includes('event: tick')) {
        const n = Number(/"n":(\d+)/.exec(record)?.[1]);
        received += 1;
        ticksReceived += 1;
        if (n >= 1 && n <= job.ticks) arrivals[n - 1] = now;
        if (n === 1) {
          firstTickAt = now;
          firstTicks += 1;
          if (firstTicks === job.streams) reportOpen();
        }
      } else if (record.includes('event: done')) {
        done = true;
        // What a page does on done: close. The server keeps the connection alive otherwise.
        socket.end();
      }
    }
  });
  socket.on('error', (err: NodeJS.ErrnoException) => {
    const code = err.code ?? err.message;
    errors.set(code, (errors.get(code) ?? 0) + 1);
  });
  socket.on('close', () => {
    ended += 1;
    recordLateness(arrivals, received);
    if (status === 200 && done && received === job.ticks) held += 1;
    else failed += 1;
    if (firstTickAt < 0) {
      // Never opened: count it towards the open report so the parent is not kept waiting.
      firstTicks += 1;
      if (firstTicks === job.streams) reportOpen();
    }
    if (ended === job.streams) reportResult();
  });
  socket.on('end', () => socket.end());
}

/** Lateness of ticks 2..n of one stream against its own schedule (see the top of this file). */
function recordLateness(arrivals: Float64Array, received: number): void {
  if (received < 2) return;
  let start = Infinity;
  for (let index = 0; index < arrivals.length; index++) {
    if (arrivals[index]! > 0) start = Math.min(start, arrivals[index]! - index * job.intervalMs);
  }
  for (let index = 1; index < arrivals.length; index++) {
    if (arrivals[index]! > 0 && latenessCount < lateness.length) {
      arrivedAt[latenessCount] = performance.timeOrigin + arrivals[index]!;
      lateness[latenessCount++] = arrivals[index]! - (start + index * job.intervalMs);
    }
  }
}

function reportOpen(): void {
  if (openReported) return;
  openReported = true;
  process.send?.({ type: 'open', streams: job.streams });
}

function reportResult(): void {
  process.send?.(
    {
      type: 'result',
      streams: job.streams,
      opened,
      held,
      failed,
      ticksReceived,
      ticksExpected: job.streams * job.ticks,
      errors: Object.fromEntries(errors),
      lateness: Array.from(lateness.subarray(0, latenessCount)),
      arrivedAt: Array.from(arrivedAt.subarray(0, latenessCount)),
    },
    () => process.exit(0),
  );
}

let started = 0;
const ramp = setInterval(() => {
  for (let i = 0; i < job.batch && started < job.streams; i++, started++) openStream();
  if (started >= job.streams) clearInterval(ramp);
}, 10);
