import type { Context, Middleware } from 'koa';
import type { JournalPage, ServerJournalEntry } from '@origin-lab/contract';
import { HttpError } from '@origin-lab/server-kit';
import { openEventStream, type OpenStreams } from '../http/sse.js';
import type { JournalStore, Stored } from './visitor-journals.js';
import { isVisitorToken, VISITOR_PARAMETER } from './visitor-token.js';

/** Where a visitor reads its journal: outside /api/, which holds only the spec's endpoints. */
export const JOURNAL_PATH = '/lab/journal';

export interface JournalStreamOptions {
  /** Bytes a reader may leave unread before its stream is ended (it reconnects and resumes). */
  maxBufferedBytes: number;
  /** A comment this often keeps idle connections and proxies from timing out. */
  keepAliveMs: number;
  /** Every open stream registers an end function here, for a graceful stop. */
  open: OpenStreams;
}

/**
 * GET ?visitor=TOKEN: the visitor's journal as a same-origin event stream, one `entry` record per
 * request the api handled, each with its id; or, asked with Accept: application/json, the entries
 * at once as { entries: [{ id, entry }] }, for a reader that polls. A reconnect sends Last-Event-ID (or ?after=N) and
 * gets exactly the entries it missed, as long as the journal still holds them. A reader that does
 * not keep up is disconnected rather than buffered without limit.
 */
export function journalStream(journals: JournalStore<ServerJournalEntry>, options: JournalStreamOptions): Middleware {
  return async (ctx) => {
    const token = ctx.query[VISITOR_PARAMETER];
    if (typeof token !== 'string' || !isVisitorToken(token)) {
      throw new HttpError(400, 'visitor must be one token of 16 to 64 base64url characters (A-Z a-z 0-9 - _)', {
        parameter: VISITOR_PARAMETER,
      });
    }
    if (Array.isArray(ctx.query.after))
      throw new HttpError(400, 'after was given more than once', { parameter: 'after' });
    const resumeFrom = ctx.get('Last-Event-ID') || ctx.query.after || '0';
    if (!/^\d{1,15}$/.test(resumeFrom)) {
      throw new HttpError(400, 'Last-Event-ID (or after) must be a whole number', { parameter: 'after' });
    }

    const after = Number(resumeFrom);

    // A page served over HTTP/1.1 polls instead of holding one of its origin's six connections.
    if (!asksForEventStream(ctx)) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { entries: await journals.entriesAfter(token, after) } satisfies JournalPage;
      return;
    }

    const res = ctx.res;
    if (ctx.method === 'HEAD') {
      ctx.respond = false;
      openEventStream(res);
      return;
    }
    let ended = false;
    let keepAlive: NodeJS.Timeout | undefined;
    // Subscribed before the backlog is read, so no entry falls between the two; entries that
    // arrive meanwhile wait here, and ids already sent are never sent twice.
    let waiting: Stored<ServerJournalEntry>[] | null = [];
    let lastSent = after;
    const send = (stored: Stored<ServerJournalEntry>) => {
      if (ended || stored.id <= lastSent) return;
      lastSent = stored.id;
      res.write(`id: ${stored.id}\nevent: entry\ndata: ${JSON.stringify(stored.entry)}\n\n`);
      if (res.writableLength > options.maxBufferedBytes) end();
    };
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      subscription.stop();
      options.open.delete(end);
      if (res.headersSent && !res.writableEnded) res.end();
    };
    const subscription = journals.subscribe(token, {
      entry: (stored) => (waiting ? waiting.push(stored) : send(stored)),
      end,
    });
    let backlog: Stored<ServerJournalEntry>[];
    try {
      await subscription.ready;
      backlog = await journals.entriesAfter(token, after);
    } catch (err) {
      subscription.stop();
      throw err;
    }
    // Gone while the backlog was read (the reader left, or its visitor was dropped).
    if (ended || res.destroyed) return end();

    ctx.respond = false;
    openEventStream(res);
    // A first comment makes every engine fire open at once.
    res.write(': journal\n\n');
    for (const stored of [...backlog, ...waiting]) send(stored);
    waiting = null;
    if (ended) return;
    keepAlive = setInterval(() => res.write(': keep-alive\n\n'), options.keepAliveMs);
    options.open.add(end);
    res.once('close', end);
  };
}

/**
 * Whether a request gets the journal as an event stream: unless it prefers JSON (a poll). This
 * also decides whether it holds a stream in the fair shares' count; no Accept, or any type
 * (curl's), gets a stream.
 */
export function asksForEventStream(ctx: Context): boolean {
  return ctx.accepts('text/event-stream', 'application/json') !== 'application/json';
}

/** The journal's route when its setting (JOURNAL_VISITORS) at 0 switched recording off. */
export function journalOff(setting: string): Middleware {
  return () => {
    throw new HttpError(404, `the journal is switched off on this server (${setting}=0)`, { path: JOURNAL_PATH });
  };
}
