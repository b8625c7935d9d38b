import http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import type { ApiConfig } from './config.js';
import { requestLog } from './middleware/request-log.js';
import { cors } from './middleware/cors.js';
import { errorsAsJson } from './middleware/errors.js';
import { unroutedAsJson } from './middleware/unrouted.js';
import { posts } from './posts/posts.js';
import { echo } from './echo/echo.js';
import { beacon } from './routes/beacon.js';
import { stream } from './routes/stream.js';
import type { OpenStreams } from './http/sse.js';
import { flaky } from './flaky/flaky.js';
import { slow } from './routes/slow.js';
import { badJson } from './routes/bad-json.js';
import { notProxied, proxy } from './proxy/proxy-route.js';
import { NOT_PROXIED_ROUTE, PROXIED_ROUTES } from './proxy/proxy-paths.js';
import { proxySettings } from './proxy/proxy-settings.js';
import type { ServerJournalEntry } from '@origin-lab/contract';
import { VisitorJournals } from './journal/visitor-journals.js';
import { recordVisitors } from './journal/record-visitors.js';
import { JOURNAL_PATH, journalOff, journalStream } from './journal/journal-stream.js';
import { LAB_CORS_PATH, labCors } from './lab/lab-cors.js';
import { LAB_STREAM_PATH, labStream } from './lab/lab-stream.js';
import { visitorLimits, type Held } from './fair-share/visitor-limits.js';

/** The api's additions outside the spec's /api/: the visitors' journals, the CORS lab and the stream lab. */
export const LAB_PREFIX = '/lab/';

export interface ApiApp extends Koa {
  /** Ends every open event stream; part of a graceful stop. Returns how many were open. */
  endStreams(): number;
  /** How many event streams are open now. */
  openStreamCount(): number;
  /** What one visitor holds now, against the fair-share limits. */
  visitorHolding(token: string): Held;
}

/** Builds the API without listening: the middleware chain, then the route table. */
export function createApp(config: ApiConfig): ApiApp {
  const app = new Koa();
  app.silent = true;
  const openStreams: OpenStreams = new Set();
  const postsHandlers = posts(config);
  const beaconHandlers = beacon(config);
  // JOURNAL_VISITORS=0 switches the journal off: nothing is recorded, and reading it says why.
  const journalOn = config.journal.visitors > 0;
  const journals = new VisitorJournals<ServerJournalEntry>({
    entriesPerVisitor: config.journal.entriesPerVisitor,
    visitors: config.journal.visitors,
    idleMs: config.journal.idleSeconds * 1_000,
  });

  // Exact, case-sensitive paths: /api/echo/ and /api/ECHO are not /api/echo. Every method Node
  // parses is known to the router, so an odd one gets 405 (or echo), never 501.
  const router = new Router({ strict: true, sensitive: true, methods: http.METHODS });
  router
    .get('/api/posts', postsHandlers.list)
    .post('/api/posts', postsHandlers.create)
    .all('/api/echo', echo(config))
    .get('/api/beacon', beaconHandlers.list)
    .post('/api/beacon', beaconHandlers.receive)
    .get('/api/stream', stream(config, openStreams))
    .get('/api/flaky', flaky(config))
    .get('/api/slow', slow(config))
    .get('/api/bad-json', badJson())
    .get(PROXIED_ROUTES, proxy(proxySettings(config), config.log))
    .all(NOT_PROXIED_ROUTE, notProxied)
    .all(LAB_CORS_PATH, labCors(config.lab, config.limits.bodyBytes))
    .get(LAB_STREAM_PATH, labStream(config.lab, openStreams))
    .get(
      JOURNAL_PATH,
      journalOn
        ? journalStream(journals, {
            maxBufferedBytes: config.journal.streamBufferBytes,
            keepAliveMs: config.journal.keepAliveMs,
            open: openStreams,
          })
        : journalOff,
    );

  // First, so each visitor's journal has every request as it arrived and every answer as it left.
  if (journalOn) app.use(recordVisitors(journals));
  if (config.logRequests) app.use(requestLog(config.log));
  // OPTIONS is answered here, before any route: the preflight. The journals are same-origin only:
  // no other origin is ever allowed to read them.
  const apiCors = cors(config.allowedOrigins);
  app.use((ctx, next) => (ctx.path.startsWith(LAB_PREFIX) ? next() : apiCors(ctx, next)));
  // After CORS, so a page on the other origin can read the 429; preflights are never counted.
  const fairShare = visitorLimits(config.visitorLimits);
  app.use(fairShare);
  app.use(errorsAsJson(config.log));
  app.use(unroutedAsJson());
  app.use(router.routes());
  app.use(router.allowedMethods());

  return Object.assign(app, {
    openStreamCount: () => openStreams.size,
    visitorHolding: fairShare.holding,
    endStreams() {
      const count = openStreams.size;
      for (const end of [...openStreams]) end();
      return count;
    },
  });
}
