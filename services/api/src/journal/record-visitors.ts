import type { Middleware } from 'koa';
import type { ServerJournalEntry } from '@origin-lab/contract';
import { CountedResponse, onResponseDone } from '@origin-lab/server-kit';
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
    // serve()'s responses count their own body bytes; any other server's are counted here.
    const bytesOut = res instanceof CountedResponse ? null : countBytesWritten(res);
    onResponseDone(req, res, () => {
      const finishedAt = Date.now();
      const entry = journalEntry({
        req,
        res,
        arrivedAt,
        finishedAt,
        query,
        bytesOut: bytesOut === null ? (res as CountedResponse).bodyBytes : bytesOut(),
      });
      if (replica !== undefined) entry.replica = replica;
      journals.record(token, entry);
    });
    return next();
  };
}

/** Counts the body bytes a response of a server other than serve()'s writes, by wrapping its write and end. */
function countBytesWritten(res: import('node:http').ServerResponse): () => number {
  let bytes = 0;
  const count = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === 'string')
      bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
  res.write = ((...args: unknown[]) => {
    count(args[0], args[1]);
    return write(...args);
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') count(args[0], args[1]);
    return end(...args);
  }) as typeof res.end;
  return () => bytes;
}
