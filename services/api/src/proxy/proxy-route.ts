import type { Context, Middleware } from 'koa';
import { HttpError, type LogSink } from '@origin-lab/server-kit';
import type { AnswerCache, CachedAnswer, CacheHit } from './proxy-cache.js';
import { callUpstream, UpstreamFailure } from './proxy-client.js';
import { VISITOR_PARAMETER } from '../journal/visitor-token.js';
import { proxyTarget } from './proxy-paths.js';
import { judgeUpstreamAnswer } from './proxy-policy.js';
import type { ProxySettings } from './proxy-settings.js';
import { SingleFlight } from './proxy-single-flight.js';

/**
 * How an answer was produced, in the X-Cache response header:
 * HIT from the cache; MISS fetched and shared; COALESCED waited for another request's fetch;
 * PASS fetched for this request only and not stored (private, cookie or error answers, or the
 * shared cache in Redis did not answer).
 */
type CacheState = 'HIT' | 'MISS' | 'COALESCED' | 'PASS';

type Outcome =
  { kind: 'answer'; shareable: boolean; answer: CachedAnswer } | { kind: 'failed'; failure: UpstreamFailure };

/**
 * GET /api/upstream/<path>: the same-origin proxy, mounted on PROXIED_ROUTES. The request is
 * judged again on its raw target (ctx.req.url), so escapes are judged on what was sent, before any
 * parsing or decoding could turn them into something else. Only PROXIED_PATHS are forwarded,
 * to the configured upstream only; answers are shared through one cache, with concurrent misses
 * for the same URL coalesced into one upstream call (per process: replicas sharing a cache in
 * Redis may each make one call for a URL none of them has yet).
 */
export function proxy(settings: ProxySettings, log: LogSink, cache: AnswerCache): Middleware {
  const flights = new SingleFlight<Outcome>();

  /** The cache's answer; undefined for a miss, null when the cache (Redis) did not answer. */
  async function lookUp(key: string): Promise<CacheHit | undefined | null> {
    try {
      return await cache.get(key);
    } catch (err) {
      log({ msg: 'proxy cache unavailable', target: key, error: String(err) });
      return null;
    }
  }

  async function store(key: string, answer: CachedAnswer): Promise<boolean> {
    try {
      return await cache.set(key, answer);
    } catch (err) {
      log({ msg: 'proxy cache unavailable', target: key, error: String(err) });
      return false;
    }
  }

  async function fetchFromUpstream(target: URL): Promise<Outcome> {
    const started = performance.now();
    try {
      const upstream = await callUpstream(target, settings);
      const judged = judgeUpstreamAnswer(upstream, settings);
      const stored = judged.shareable && (await store(target.href, judged.answer));
      log({ msg: 'upstream call', target: target.href, status: upstream.status, stored, ms: elapsed(started) });
      return { kind: 'answer', ...judged };
    } catch (err) {
      const failure =
        err instanceof UpstreamFailure
          ? err
          : new UpstreamFailure(502, 'the upstream is unavailable', 'the exchange with the upstream failed');
      log({
        msg: 'upstream failed',
        target: target.href,
        status: failure.status,
        error: failure.message,
        detail: failure.detail,
        ms: elapsed(started),
      });
      return { kind: 'failed', failure };
    }
  }

  return async (ctx) => {
    const target = proxyTarget(withoutVisitorToken(ctx), settings);
    if (target.kind === 'not-proxied') return notProxied(ctx);
    if (target.kind === 'bad-query') throw badQuery(target.reason, settings);

    const key = target.url.href;
    const hit = await lookUp(key);
    if (hit) return send(ctx, hit.answer, 'HIT', hit.ageSeconds);

    const flight = flights.run(key, () => fetchFromUpstream(target.url));
    let outcome = await flight.result;
    let state: CacheState = flight.joined ? 'COALESCED' : 'MISS';
    // An unshareable answer is never handed to another request: a waiter fetches its own.
    if (flight.joined && outcome.kind === 'answer' && !outcome.shareable) {
      outcome = await fetchFromUpstream(target.url);
      state = 'MISS';
    }
    if (outcome.kind === 'failed') {
      throw new HttpError(
        outcome.failure.status,
        outcome.failure.message,
        { detail: outcome.failure.detail },
        { 'Cache-Control': 'no-store' },
      );
    }
    if (!outcome.shareable || hit === null) state = 'PASS';
    send(ctx, outcome.answer, state);
  };
}

function send(ctx: Context, answer: CachedAnswer, state: CacheState, ageSeconds?: number): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.set('X-Cache', state);
  if (ageSeconds !== undefined) ctx.set('Age', String(ageSeconds));
  ctx.body = answer.body;
}

/** The spec's answer for every path off the allowlist, whatever the method: 404, plain text. */
export function notProxied(ctx: Context): void {
  ctx.status = 404;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Not proxied';
}

function badQuery(reason: 'characters' | 'length', { maxQueryChars, variables }: ProxySettings): HttpError {
  return reason === 'length'
    ? new HttpError(414, 'the query string is too long', {
        detail: `at most ${maxQueryChars} characters (${variables.maxQueryChars})`,
      })
    : new HttpError(400, 'the query string holds characters a query may not', {
        detail: 'only visible ASCII without "#"; percent-escape the rest',
      });
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/**
 * The request target without the visitor's token: the token reads the visitor's journal, so it
 * never goes to the third party, and it would split the cache into one entry per page load. Every
 * parameter named visitor goes, token or not, so that a second one cannot slip through behind a
 * first; the rest is kept as sent.
 */
function withoutVisitorToken(ctx: Context): string {
  const raw = ctx.req.url ?? '';
  const at = raw.indexOf('?');
  if (at === -1 || !raw.includes(VISITOR_PARAMETER, at)) return raw;
  const kept = raw
    .slice(at + 1)
    .split('&')
    .filter((part) => part !== VISITOR_PARAMETER && !part.startsWith(`${VISITOR_PARAMETER}=`));
  return kept.length === 0 ? raw.slice(0, at) : `${raw.slice(0, at)}?${kept.join('&')}`;
}
