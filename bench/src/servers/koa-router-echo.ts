/**
 * What routing costs on top of Koa: the same cheapest Koa echo (koa-minimal-echo.ts), reached
 * through @koa/router 15 (path-to-regexp 8) on GET and POST /api/echo, as a routed Koa app
 * reaches its handlers. Beside the minimal Koa echo it shows the router's share; beside the api,
 * the floor of any Koa + @koa/router app with this answer. Prints "listening on <port>".
 */
import Koa from 'koa';
import Router from '@koa/router';
import { koaEcho, listen } from './echo-answer.js';

const router = new Router();
router.get('/api/echo', koaEcho);
router.post('/api/echo', koaEcho);

const app = new Koa();
app.use(router.routes());
listen(app.callback());
