/**
 * What routing costs on top of Koa: the same cheapest Koa echo (koa-minimal-echo.ts), reached
 * through @koa/router 15 (path-to-regexp 8) on GET and POST /api/echo, as a routed Koa app
 * reaches its handlers. Beside the minimal Koa echo it shows the router's share; beside the api,
 * the floor of any Koa + @koa/router app with this answer. Prints "listening on <port>".
 *
 * With LOG_REQUESTS=true it logs each request with server-kit's request log (the api's pino
 * logger, to stdout): what any app pays for that line, the floor of the api's log-on figure.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { requestLogger, stdoutLog } from '@origin-lab/server-kit';
import { koaEcho, listen } from './echo-answer.js';

const router = new Router();
router.get('/api/echo', koaEcho);
router.post('/api/echo', koaEcho);

const app = new Koa();
if (process.env.LOG_REQUESTS === 'true') {
  const logRequest = requestLogger(stdoutLog, 'request');
  app.use((ctx, next) => {
    logRequest(ctx.req, ctx.res);
    return next();
  });
}
app.use(router.routes());
listen(app.callback());
