/**
 * What Koa itself costs: the cheapest Koa app giving the same echo answer as the bare node:http
 * baseline: one middleware, synchronous when there is no body, the JSON serialised once with a
 * fixed Content-Type, no CORS middleware, no routing, no error handling. The api cannot be faster
 * than this while it is a Koa app; its figure beside the api's shows what the api adds.
 * Prints "listening on <port>".
 */
import Koa from 'koa';
import { koaEcho, listen } from './echo-answer.js';

const app = new Koa();
app.use(koaEcho);
listen(app.callback());
