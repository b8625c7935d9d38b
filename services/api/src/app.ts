import http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import compose from 'koa-compose';
import { errorsAsJson, unroutedAsJson, variablesOf } from '@origin-lab/server-kit';
import { API_SETTINGS, type ApiConfig } from './config.js';
import { requestLog } from './middleware/request-log.js';
import { cors } from './middleware/cors.js';
import { byPathPrefix } from './middleware/by-path-prefix.js';
import { posts } from './posts/posts.js';
import { echo } from './echo/echo.js';
import { beacon } from './beacon/beacon.js';
import { stream } from './stream/stream.js';
import type { OpenStreams } from './http/sse.js';
import { flaky } from './flaky/flaky.js';
import { slow } from './slow/slow.js';
import { badJson } from './bad-json/bad-json.js';
import { notProxied, proxy } from './proxy/proxy-route.js';
import { NOT_PROXIED_ROUTE, PROXIED_ROUTES } from './proxy/proxy-paths.js';
import { proxySettings } from './proxy/proxy-settings.js';
import { recordVisitors } from './journal/record-visitors.js';
import { asksForEventStream, JOURNAL_PATH, journalOff, journalStream } from './journal/journal-stream.js';
import { LAB_CORS_PATH, labCors } from './lab/lab-cors.js';
import { LAB_STREAM_PATH, labStream } from './lab/lab-stream.js';
import { LAB_MCP_PATH, labMcp } from './lab/lab-mcp.js';
import { labRedirectOrigins } from './lab/lab-scenario.js';
import { LAB_IDP_CALLBACK_PATH, LAB_IDP_PATHS } from '@origin-lab/contract/lab-idp';
import { authorize, callback, frame, signIn, token } from './lab/idp/lab-idp.js';
import { visitorLimits } from './fair-share/visitor-limits.js';
import type { Held } from './fair-share/holdings.js';
import { holds, holdsIn } from './fair-share/holds.js';
import { createStores } from './stores.js';
import { HEALTH_PATH, health } from './shared-state/health.js';

/** The api's additions outside the spec's /api/: the visitors' journals, the CORS, stream and MCP labs. */
export const LAB_PREFIX = '/lab/';

/**
 * Exact, case-sensitive paths: /api/echo/ and /api/ECHO are not /api/echo. Every method Node
 * parses is known to the routers, so an odd one gets 405 (or echo), never 501.
 */
const ROUTER_OPTIONS = { strict: true, sensitive: true, methods: http.METHODS };

export interface ApiApp extends Koa {
  /** Ends every open event stream; part of a graceful stop. Returns how many were open. */
  endStreams(): number;
  /** How many event streams are open now. */
  openStreamCount(): number;
  /** What one visitor holds now, against the fair-share limits. */
  visitorHolding(token: string): Promise<Held>;
  /** Resolves once the shared state can be used (at once in memory), or after timeoutMs; says which. */
  whenStateReady(timeoutMs: number): Promise<boolean>;
  /** Closes the connections to the shared state; after the server has stopped. */
  close(): Promise<void>;
}

/** Builds the API without listening: the route tables, then the middleware chain that reaches them. */
export function createApp(config: ApiConfig): ApiApp {
  const app = new Koa();
  app.silent = true;
  const openStreams: OpenStreams = new Set();
  const proxyConfig = proxySettings(config.upstream, variablesOf(API_SETTINGS.upstream), config.now);
  const stores = createStores(config, proxyConfig.cache);
  const { bodyBytes } = config.limits;
  const postsHandlers = posts(config.limits, stores.posts);
  const beaconHandlers = beacon({ bodyBytes }, stores.beacons);
  // JOURNAL_VISITORS=0 switches the journal off: nothing is recorded, and reading it says why.
  const journalOn = config.journal.visitors > 0;
  const journals = stores.journals;

  // The spec's endpoints: /api/ holds exactly these. holds() marks what a fair share counts
  // besides being in flight: an open event stream, a slow wait.
  const api = new Router(ROUTER_OPTIONS)
    .get('/api/posts', postsHandlers.list)
    .post('/api/posts', postsHandlers.create)
    .all('/api/echo', echo({ bodyBytes }))
    .get('/api/beacon', beaconHandlers.list)
    .post('/api/beacon', beaconHandlers.receive)
    .get(
      '/api/stream',
      holds('streams', stream({ count: config.streamCount, intervalMs: config.streamIntervalMs }, openStreams)),
    )
    .get('/api/flaky', flaky(config.flaky))
    .get('/api/slow', holds('slow', slow({ ms: config.slowMs })))
    .get('/api/bad-json', badJson())
    .get(PROXIED_ROUTES, proxy(proxyConfig, config.log, stores.proxyCache))
    .all(NOT_PROXIED_ROUTE, notProxied);

  // The additions, under LAB_PREFIX: the CORS lab, the stream lab, the MCP lab, the identity
  // provider, health and the visitors' journals.
  const labOrigins = labRedirectOrigins(config.allowedOrigins, config.lab.thirdSite);
  const idp = { labOrigins, codes: stores.idpCodes, bodyBytes };
  const lab = new Router(ROUTER_OPTIONS)
    .all(LAB_CORS_PATH, labCors({ ...config.lab, redirectOrigins: labOrigins }, bodyBytes))
    .all(LAB_MCP_PATH, labMcp({ trustedOrigins: labOrigins, bodyBytes }))
    .get(LAB_IDP_PATHS.authorize, authorize(idp))
    .post(LAB_IDP_PATHS.signIn, signIn(idp))
    .all(LAB_IDP_PATHS.token, token(idp))
    .get(LAB_IDP_PATHS.frame, frame(idp))
    .get(LAB_IDP_CALLBACK_PATH, callback(idp))
    .post(LAB_IDP_CALLBACK_PATH, callback(idp))
    .get(LAB_STREAM_PATH, holds('streams', labStream(config.lab, openStreams)))
    .get(HEALTH_PATH, health(config.replica, stores.redis))
    .get(
      JOURNAL_PATH,
      holds(
        'streams',
        journalOn
          ? journalStream(journals, {
              maxBufferedBytes: config.journal.streamBufferBytes,
              keepAliveMs: config.journal.keepAliveMs,
              open: openStreams,
            })
          : journalOff(API_SETTINGS.journal.visitors.env),
        asksForEventStream,
      ),
    );

  const fairShare = visitorLimits(config.visitorLimits, {
    holdOf: holdsIn([api, lab]),
    settings: variablesOf(API_SETTINGS.visitorLimits),
    store: stores.holdings,
    log: config.log,
  });
  const errors = errorsAsJson({ log: config.log });
  const unrouted = unroutedAsJson();

  // First, so each visitor's journal has every request as it arrived and every answer as it left.
  if (journalOn) app.use(recordVisitors(journals, stores.redis ? config.replica : undefined));
  if (config.logRequests)
    app.use(requestLog(config.log, config.logRequestLinesPerSecond, API_SETTINGS.logRequestLinesPerSecond.env));
  app.use(
    byPathPrefix(
      LAB_PREFIX,
      // errors first in both chains: every failure below it, the fair share's 429 included, is thrown.
      // Same-origin only: no other origin may read a journal, and the CORS lab answers with its own headers.
      compose([errors, fairShare, lab.routes(), unrouted, lab.allowedMethods()]),
      // OPTIONS is answered by CORS, before any route: the preflight. Fair shares come after CORS,
      // so a page on the other origin can read the 429 (errors keeps the CORS headers), and
      // preflights are never counted.
      compose([errors, cors(config.allowedOrigins), fairShare, api.routes(), unrouted, api.allowedMethods()]),
    ),
  );

  return Object.assign(app, {
    openStreamCount: () => openStreams.size,
    visitorHolding: fairShare.holding,
    whenStateReady: (timeoutMs: number) => stores.redis?.whenReady(timeoutMs) ?? Promise.resolve(true),
    close: () => stores.close(),
    endStreams() {
      const count = openStreams.size;
      for (const end of [...openStreams]) end();
      return count;
    },
  });
}
