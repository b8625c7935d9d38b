import Koa from 'koa';
import Router from '@koa/router';
import type { ApiConfig } from './config.js';
import { requestLog } from './middleware/request-log.js';
import { cors } from './middleware/cors.js';
import { errorsAsJson } from './middleware/errors.js';
import { posts } from './routes/posts.js';
import { echo } from './routes/echo.js';
import { beacon } from './routes/beacon.js';
import { stream, type OpenStreams } from './routes/stream.js';
import { flaky } from './routes/flaky.js';
import { slow } from './routes/slow.js';
import { badJson } from './routes/bad-json.js';
import { notFound } from './routes/not-found.js';

export interface ApiApp extends Koa {
  /** Ends every open event stream; part of a graceful stop. Returns how many were open. */
  endStreams(): number;
}

/** Builds the API without listening: the middleware chain, then one handler per endpoint. */
export function createApp(config: ApiConfig): ApiApp {
  const app = new Koa();
  app.silent = true;
  const openStreams: OpenStreams = new Set();

  const router = new Router({ prefix: '/api', strict: true, sensitive: true });
  router.all('/posts', posts(config));
  router.all('/echo', echo(config));
  router.all('/beacon', beacon(config));
  router.all('/stream', stream(config, openStreams));
  router.all('/flaky', flaky(config));
  router.all('/slow', slow(config));
  router.all('/bad-json', badJson());

  if (config.logRequests) app.use(requestLog(config.log));
  app.use(cors(config.allowedOrigins));
  app.use(errorsAsJson(config.log));
  app.use(router.routes());
  app.use(notFound());

  return Object.assign(app, {
    endStreams() {
      const count = openStreams.size;
      for (const end of [...openStreams]) end();
      return count;
    },
  });
}
