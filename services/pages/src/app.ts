import http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import serveStatic from 'koa-static';
import { errorsAsJson, unroutedAsJson } from '@origin-lab/server-kit';
import type { RebindSite } from '@origin-lab/contract';
import type { PagesConfig } from './config.js';
import { rebindSiteFromFile } from './rebind-site.js';
import { siteConfigScript } from './site-pairs.js';
import { unloadPolicy } from './unload-policy.js';
import { isolation } from './isolation.js';
import { signInAddresses } from './sign-in-addresses.js';
import { unservedAsJson } from './unserved.js';

/**
 * Serves the built pages. Every answer says no-cache: the browser keeps its copy but asks
 * again each time (a cheap 304 while nothing changed), so a rebuild is never hidden by a
 * stale page or module. Settings come only from config (pagesConfigFromEnv reads the
 * environment), so tests and the launcher can run several apps side by side.
 */
export function createApp(config: PagesConfig & { rebind?: RebindSite | null; privateAddress?: string | null }): Koa {
  const script = (rebind: RebindSite | null | undefined) =>
    siteConfigScript(config.sitePairs, config.thirdSite, config.websocketTargetPort, rebind, config.privateAddress);
  const fixed = script(config.rebind);
  // The rebinding lab as a service of its own (compose) comes and goes: its file is read again.
  const rebindOfFile = config.rebindSiteFile ? rebindSiteFromFile(config.rebindSiteFile) : null;
  // The one answer that is not a file; GET also answers HEAD, another method is a JSON 405.
  const routes = new Router({ strict: true, sensitive: true, methods: http.METHODS }).get(
    '/site-config.js',
    async (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = rebindOfFile ? script((await rebindOfFile()) ?? config.rebind) : fixed;
    },
  );
  const app = new Koa();
  app.silent = true;
  // First: every failure below is thrown and answered as a JSON Error object (nosniff kept).
  app.use(errorsAsJson());
  app.use((ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    return next();
  });
  // What neither the table nor a file answers: a page asked with another method (405), a path
  // that names none (404). Outside the table, so the table's own 405 passes through.
  app.use(unservedAsJson(config.root));
  app.use(routes.routes());
  // Only the table's 405: a path it does not know goes on to the files (unservedAsJson after them).
  app.use(unroutedAsJson({ notFound: false }));
  app.use(routes.allowedMethods());
  app.use(unloadPolicy());
  app.use(isolation());
  app.use(signInAddresses());
  // Revalidation: koa-static sets Last-Modified; an unchanged file answers 304 with no body.
  app.use(async (ctx, next) => {
    await next();
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.status === 200 && ctx.fresh) ctx.status = 304;
  });
  app.use(
    serveStatic(config.root, {
      index: 'index.html',
      setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
    }),
  );
  return app;
}
