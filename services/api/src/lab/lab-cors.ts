import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import {
  LAB_CORS_PATH,
  LAB_DEMO_COOKIE as DEMO_COOKIE,
  LAB_EXTRA_HEADER as EXTRA_HEADER,
  labPolicyHeaders,
  type LabCorsPolicy,
  type LabCorsScenario,
} from '@origin-lab/contract';
import { declaresNoBody, NO_BODY, readSentBody } from '../http/read-body.js';
import { reflection } from '../echo/echo.js';
import { labScenario, type LabLimits } from './lab-scenario.js';

/**
 * The CORS lab: a policy chosen by the request's URL (its names, choices, defaults and codec are
 * the contract's, packages/contract/src/lab-cors.ts). Outside /api/, which holds only the spec's
 * endpoints. It holds no secret, fetches nothing and sets no cookie but its own demo cookie.
 */
export { LAB_CORS_PATH };

/** Sets the Access-Control-* headers (and Vary) of one policy on the answer (the contract's labPolicyHeaders). */
function applyPolicy(ctx: Context, policy: LabCorsPolicy): void {
  ctx.set(labPolicyHeaders(policy, ctx.get('Origin') || null));
}

/** A mark short and plain enough to be a cookie value as it is. */
const COOKIE_SAFE_MARK = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The demo cookie. Its value is the request's mark when it has one, so a page can tell its own
 * cookie coming back from an older one; otherwise when it was set.
 */
function demoCookie(scenario: LabCorsScenario, mark: string | string[] | undefined): string {
  const sameSite = { none: 'None', lax: 'Lax', strict: 'Strict' }[scenario.cookie as 'none' | 'lax' | 'strict'];
  const value =
    typeof mark === 'string' && COOKIE_SAFE_MARK.test(mark) ? mark : new Date().toISOString().replace(/[:.]/g, '-');
  return `${DEMO_COOKIE}=${value}; Path=${LAB_CORS_PATH}; Max-Age=3600; HttpOnly; SameSite=${sameSite}${scenario.cookieSecure ? '; Secure' : ''}`;
}

/**
 * The request headers with the Cookie header cut down to the demo cookie. Any origin may read the
 * lab, with credentials if the URL asks: reflecting the host's other cookies would hand them to
 * any site. How many were left out is said instead.
 */
function withOnlyDemoCookie(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  if (headers.cookie === undefined) return headers;
  const pairs = headers.cookie.split(';').map((pair) => pair.trim());
  const kept = pairs.filter((pair) => pair.startsWith(`${DEMO_COOKIE}=`));
  const hidden = pairs.length - kept.length;
  const note = hidden > 0 ? [`(${hidden} other cookie${hidden === 1 ? '' : 's'} not shown)`] : [];
  return { ...headers, cookie: [...kept, ...note].join('; ') };
}

/**
 * GET, POST, OPTIONS or any method on /lab/cors. A preflight (OPTIONS with
 * Access-Control-Request-Method) gets the preflight policy and status and no body; anything else
 * gets the actual policy, the extra header and the demo cookie when asked, and the request
 * reflected as /api/echo does, with the scenario the lab applied.
 */
export function labCors(limits: LabLimits, bodyLimit: number): Middleware {
  return async (ctx) => {
    let scenario: LabCorsScenario;
    try {
      scenario = labScenario(ctx.querystring, limits);
    } catch (err) {
      // The page that built a wrong URL may read why, from either origin.
      if (ctx.get('Origin')) ctx.set({ 'Access-Control-Allow-Origin': ctx.get('Origin'), Vary: 'Origin' });
      throw err;
    }
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '') {
      applyPolicy(ctx, scenario.preflight);
      ctx.status = scenario.preflightStatus;
      // A redirected preflight: browsers refuse to follow it, which is the lesson.
      if (scenario.preflightStatus === 301) ctx.set('Location', ctx.url);
      return;
    }
    applyPolicy(ctx, scenario.actual);
    if (scenario.extraHeader !== null) ctx.set(EXTRA_HEADER, scenario.extraHeader);
    if (scenario.cookie !== 'off') ctx.append('Set-Cookie', demoCookie(scenario, ctx.query.mark));
    const body = declaresNoBody(ctx.req) ? NO_BODY : await readSentBody(ctx.req, bodyLimit);
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    const reflected = reflection(ctx, body);
    ctx.body = JSON.stringify({ ...reflected, headers: withOnlyDemoCookie(reflected.headers), scenario });
  };
}
