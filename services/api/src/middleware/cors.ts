import type { Context, Middleware } from 'koa';
import { HttpError } from '@origin-lab/server-kit';

/** What the API approves in a preflight; the spec fixes these lists. */
export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, X-Requested-With',
  'Access-Control-Max-Age': '86400',
} as const;

/** A refused preflight's body names its origin, cut to this many characters. */
const ECHOED_ORIGIN_CHARS = 200;

/**
 * The cross-origin rules of the API, in one place.
 *
 * - The Origin header is compared exactly with the written-down allowlist and reflected only
 *   when it is on it. Reflecting without checking would approve every site.
 * - Vary: Origin goes on every response, since the CORS headers depend on Origin.
 * - OPTIONS is always answered here, before any route or authentication: a preflight carries
 *   no credentials, and anything but 2xx fails it. An allowed origin gets the preflight answer
 *   even without Access-Control-Request-Method, which a page cannot send itself: that is how the
 *   reads page shows it. Without Origin, or from another origin without it: 204 with Allow.
 * - ?cors=off answers normally with no Access-Control-* headers; ?cors=credentials also sends
 *   Access-Control-Allow-Credentials: true (never by default: nothing here needs cookies).
 * - A disallowed origin still gets its answer (CORS restricts browser reads, it does not protect
 *   the server); only its preflight is refused, with 403 and a JSON reason (thrown, for errorsAsJson).
 */
export function cors(allowedOrigins: readonly string[]): Middleware {
  const allowlist = new Set(allowedOrigins);
  return (ctx, next) => {
    // Nothing has set Vary yet at this point of the chain, so one setHeader replaces vary()'s merge.
    ctx.res.setHeader('Vary', 'Origin');
    const mode = corsMode(ctx);
    const origin = singleOrigin(ctx);
    const approved = mode !== 'off' && origin !== undefined && allowlist.has(origin);

    if (approved) {
      ctx.set('Access-Control-Allow-Origin', origin);
      if (mode === 'credentials') ctx.set('Access-Control-Allow-Credentials', 'true');
    }

    if (ctx.method !== 'OPTIONS') return next();

    if (approved) {
      ctx.set(PREFLIGHT_HEADERS);
      ctx.status = 204;
    } else if (origin !== undefined && mode !== 'off' && ctx.get('Access-Control-Request-Method') !== '') {
      throw new HttpError(403, 'origin is not on the allowlist', { origin: origin.slice(0, ECHOED_ORIGIN_CHARS) });
    } else {
      ctx.set('Allow', 'GET, POST, OPTIONS');
      ctx.status = 204;
    }
  };
}

type CorsMode = 'on' | 'off' | 'credentials';

/**
 * The mode ?cors= names. Given more than once, it counts when every copy names the same mode
 * (a page that appends cors=off to a URL that had it); copies that disagree leave the default.
 */
function corsMode(ctx: Context): CorsMode {
  // Cheap test first: this runs on every request.
  if (!ctx.querystring.includes('cors=')) return 'on';
  const given = ctx.query.cors;
  const value = Array.isArray(given) && given.every((copy) => copy === given[0]) ? given[0] : given;
  return value === 'off' || value === 'credentials' ? value : 'on';
}

/** The Origin value when exactly one Origin header was sent; two headers approve nothing. */
function singleOrigin(ctx: Context): string | undefined {
  const joined = ctx.req.headers.origin;
  // Node joins repeated Origin headers with ", ". Without a comma there was exactly one, and the
  // per-request copy of every header that headersDistinct builds can be skipped.
  if (joined === undefined || !joined.includes(',')) return joined;
  const values = ctx.req.headersDistinct.origin;
  if (values === undefined || values.length !== 1) return undefined;
  return values[0];
}
