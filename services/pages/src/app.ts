import type { ErrorBody } from '@origin-lab/contract';
import Koa from 'koa';
import serveStatic from 'koa-static';
import type { PagesConfig } from './config.js';
import { siteConfigScript } from './site-pairs.js';
import { unloadPolicy } from './unload-policy.js';

/**
 * Serves the built pages. Every answer says no-cache: the browser keeps its copy but asks
 * again each time (a cheap 304 while nothing changed), so a rebuild is never hidden by a
 * stale page or module. Settings come only from config (pagesConfigFromEnv reads the
 * environment), so tests and the launcher can run several apps side by side.
 */
export function createApp(config: PagesConfig): Koa {
  const script = siteConfigScript(config.sitePairs);
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.path !== '/site-config.js') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.body = { error: 'method not allowed', path: ctx.path } satisfies ErrorBody;
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = script;
  });
  app.use(unloadPolicy());
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
