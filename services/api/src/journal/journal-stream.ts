import type { Middleware } from 'koa';
import type { ServerJournalEntry } from '@origin-lab/contract';
import { ApiError } from '../http/api-error.js';
import { openEventStream, type OpenStreams } from '../http/sse.js';
import type { Stored, VisitorJournals } from './visitor-journals.js';
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
export function journalStream(
  journals: VisitorJournals<ServerJournalEntry>,
  options: JournalStreamOptions,
): Middleware {
  return (ctx) => {
    const token = ctx.query[VISITOR_PARAMETER];
    if (typeof token !== 'string' || !isVisitorToken(token)) {
      ctx.status = 400;
      ctx.body = {
        error: 'visitor must be one token of 16 to 64 base64url characters (A-Z a-z 0-9 - _)',
        parameter: VISITOR_PARAMETER,
      };
      return;
    }
    const resumeFrom = ctx.get('Last-Event-ID') || (typeof ctx.query.after === 'string' ? ctx.query.after : '0');
    if (!/^\d{1,15}$/.test(resumeFrom)) {
      ctx.status = 400;
      ctx.body = { error: 'Last-Event-ID (or after) must be a whole number', parameter: 'after' };
      return;
    }

    // A page served over HTTP/1.1 polls instead of holding one of its origin's six connections.
    if (ctx.accepts('text/event-stream', 'application/json') === 'application/json') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { entries: journals.entriesAfter(token, Number(resumeFrom)) };
      return;
    }

    const res = ctx.res;
    ctx.respond = false;
    openEventStream(res);
    // A first comment makes every engine fire open at once.
    res.write(': journal\n\n');

    let ended = false;
    let unsubscribe = () => {};
    let keepAlive: NodeJS.Timeout | undefined;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      unsubscribe();
      options.open.delete(end);
      if (!res.writableEnded) res.end();
    };
    const send = (stored: Stored<ServerJournalEntry>) => {
      if (ended) return;
      res.write(`id: ${stored.id}\nevent: entry\ndata: ${JSON.stringify(stored.entry)}\n\n`);
      if (res.writableLength > options.maxBufferedBytes) end();
    };

    for (const stored of journals.entriesAfter(token, Number(resumeFrom))) send(stored);
    if (ended) return;
    unsubscribe = journals.subscribe(token, { entry: send, end });
    keepAlive = setInterval(() => res.write(': keep-alive\n\n'), options.keepAliveMs);
    options.open.add(end);
    res.once('close', end);
  };
}

/** The journal's route when JOURNAL_VISITORS=0 switched recording off. */
export const journalOff: Middleware = () => {
  throw new ApiError(404, 'the journal is switched off on this server (JOURNAL_VISITORS=0)', { path: JOURNAL_PATH });
};
