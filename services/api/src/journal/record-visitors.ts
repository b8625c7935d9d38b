import type { Middleware } from 'koa';
import type { ServerJournalEntry } from '@origin-lab/contract';
import { countBodyBytes, onResponseDone } from '@origin-lab/server-kit';
import { journalEntry } from './journal-entry.js';
import type { JournalStore } from './visitor-journals.js';
import { visitorOf } from './visitor-token.js';
import { JOURNAL_PATH } from './journal-stream.js';

/**
 * Records every request that carries a visitor token in its URL, preflights included, in that
 * visitor's journal once the answer is handed to the connection (or the client went away). First
 * in the chain, so it sees each request as it arrived and each answer as it left. Requests without a valid token are
 * recorded nowhere: nobody could read them. Reading the journal is not recorded in it.
 * With replica set (replicas sharing state), each entry says which replica answered.
 */
export function recordVisitors(journals: JournalStore<ServerJournalEntry>, replica?: string): Middleware {
  return (ctx, next) => {
    // A scan of the raw query, no parsing, once per request (shared with the fair-share limits).
    const found = visitorOf(ctx);
    if (found === null || ctx.path === JOURNAL_PATH) return next();
    const { token, rest: query } = found;

    const { req, res } = ctx;
    const arrivedAt = Date.now();
    const sent = countBodyBytes(res);
    onResponseDone(req, res, () => {
      const finishedAt = Date.now();
      const entry = journalEntry({ req, res, arrivedAt, finishedAt, query, bytesOut: sent.bodyBytes });
      if (replica !== undefined) entry.replica = replica;
      journals.record(token, entry);
    });
    return next();
  };
}
