import Koa from 'koa';
import type { ApiConfig } from './config.js';
import { requestLog } from './middleware/request-log.js';
import { cors } from './middleware/cors.js';
import { errorsAsJson } from './middleware/errors.js';
import { dispatch } from './middleware/dispatch.js';
import { posts } from './posts/posts.js';
import { echo } from './echo/echo.js';
import { beacon } from './routes/beacon.js';
import { stream, type OpenStreams } from './routes/stream.js';
import { flaky } from './flaky/flaky.js';
import { slow } from './routes/slow.js';
import { badJson } from './routes/bad-json.js';
import { notFound } from './routes/not-found.js';
import { upstreamProxy } from './proxy/proxy-route.js';

export interface ApiApp extends Koa {
  /** Ends every open event stream; part of a graceful stop. Returns how many were open. */
  endStreams(): number;
  /** How many event streams are open now. */
  openStreamCount(): number;
}

/** Builds the API without listening: the middleware chain, then one handler per endpoint. */
export function createApp(config: ApiConfig): ApiApp {
  const app = new Koa();
  app.silent = true;
  const openStreams: OpenStreams = new Set();

  const proxy = upstreamProxy(config);
  // One handler per endpoint, found by exact path (see middleware/dispatch.ts).
  const routes = new Map<string, Koa.Middleware>([
    ['/api/posts', posts(config)],
    ['/api/echo', echo(config)],
    ['/api/beacon', beacon(config)],
    ['/api/stream', stream(config, openStreams)],
    ['/api/flaky', flaky(config)],
    ['/api/slow', slow(config)],
    ['/api/bad-json', badJson()],
    ['/api/upstream', proxy],
  ]);
  /** Routes that own every path under a prefix, tried in order after the exact paths. */
  const prefixRoutes: [string, Koa.Middleware][] = [['/api/upstream/', proxy]];

  if (config.logRequests) app.use(requestLog(config.log));
  app.use(cors(config.allowedOrigins));
  app.use(errorsAsJson(config.log));
  app.use(dispatch(routes, prefixRoutes, notFound()));

  return Object.assign(app, {
    openStreamCount: () => openStreams.size,
    endStreams() {
      const count = openStreams.size;
      for (const end of [...openStreams]) end();
      return count;
    },
  });
}
