import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import {
  LAB_CORS_PATH,
  LAB_REDIRECT_USERINFO,
  LAB_SCENARIO_PARAMETERS,
  LAB_ETAG,
  LAB_DEMO_COOKIE as DEMO_COOKIE,
  LAB_EXTRA_HEADER as EXTRA_HEADER,
  labPolicyHeaders,
  labRedirectPolicy,
  type LabCorsPolicy,
  type LabCorsScenario,
} from '@origin-lab/contract';
import { fetchMetadataRefusal } from '@origin-lab/contract/fetch-metadata';
import { declaresNoBody, NO_BODY, readSentBody } from '../http/read-body.js';
import { reflection } from '../echo/echo.js';
import { HttpError } from '@origin-lab/server-kit';
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
  return `${DEMO_COOKIE}=${value}; Path=${LAB_CORS_PATH}; Max-Age=3600; HttpOnly; SameSite=${sameSite}${scenario.cookieSecure ? '; Secure' : ''}${scenario.cookiePartitioned ? '; Partitioned' : ''}`;
}

/** Whether a request carries a Bearer token (any token68: the lab checks its shape, not its value). */
const BEARER = /^Bearer [A-Za-z0-9\-._~+/]+=*$/;

/** The schemes whose credentials a browser keeps and adds by itself; only the name is shown. */
const BROWSER_SCHEMES = /^(Basic|Digest|NTLM|Negotiate) /i;

/**
 * The request headers without the credentials a browser adds on its own. Any origin may read the
 * lab, with credentials if the URL asks: reflecting them would hand them to any site. The Cookie
 * header is cut down to the demo cookie, with a count of the others. Authorization keeps its value
 * only for a Bearer token, which a script set itself (a browser keeps and adds only Basic, Digest,
 * NTLM and Negotiate ones, such as a password a teacher put in front of the lab): theirs shows the
 * scheme alone, anything else nothing. Proxy-Authorization, which no script may set, is never shown.
 */
function withoutBrowserCredentials(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const shown = { ...headers };
  if (headers.cookie !== undefined) {
    const pairs = headers.cookie.split(';').map((pair) => pair.trim());
    const kept = pairs.filter((pair) => pair.startsWith(`${DEMO_COOKIE}=`));
    const hidden = pairs.length - kept.length;
    const note = hidden > 0 ? [`(${hidden} other cookie${hidden === 1 ? '' : 's'} not shown)`] : [];
    shown.cookie = [...kept, ...note].join('; ');
  }
  const authorization = headers.authorization;
  if (authorization !== undefined && !BEARER.test(authorization)) {
    const scheme = BROWSER_SCHEMES.exec(authorization)?.[1];
    shown.authorization = scheme ? `${scheme} (credentials not shown)` : '(not shown)';
  }
  if (headers['proxy-authorization'] !== undefined) shown['proxy-authorization'] = '(not shown)';
  return shown;
}

/** The scenario's parameters that ask for the redirect: the hop's Location leaves them out. */
const REDIRECT_PARAMETERS = LAB_SCENARIO_PARAMETERS.filter((name) => name.startsWith('redirect-'));

/**
 * The lab on the scenario's redirect origin, same query without the redirect (so that one
 * answers), with the user name and password in it when the scenario asks.
 */
function redirectLocation(scenario: LabCorsScenario & { redirectTo: string }, query: string): string {
  const params = new URLSearchParams(query);
  for (const name of REDIRECT_PARAMETERS) params.delete(name);
  const target = new URL(`${LAB_CORS_PATH}${params.size ? `?${params}` : ''}`, scenario.redirectTo);
  if (scenario.redirectUserinfo)
    [target.username, target.password] = LAB_REDIRECT_USERINFO.split(':') as [string, string];
  return target.href;
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
    if (scenario.protect === 'fetch-metadata') {
      const refusal = fetchMetadataRefusal({
        method: ctx.method,
        secFetchSite: ctx.get('Sec-Fetch-Site') || null,
        origin: ctx.get('Origin') || null,
        host: ctx.host,
      });
      // Not CORS: the server refuses the request itself. Its answer carries the CORS headers, as
      // a CORS middleware in front of the protection would give it, so the page can read why.
      if (refusal) {
        applyPolicy(ctx, scenario.actual);
        throw new HttpError(403, refusal, { path: LAB_CORS_PATH, protection: 'fetch-metadata' });
      }
    }
    if (scenario.redirectTo !== null) {
      if (scenario.redirectCors) applyPolicy(ctx, labRedirectPolicy(scenario.actual));
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 307;
      ctx.set('Location', redirectLocation({ ...scenario, redirectTo: scenario.redirectTo }, ctx.querystring));
      return;
    }
    if (scenario.revalidate !== 'off') {
      // Kept, but asked again every time (no-cache): the second request is the revalidation.
      ctx.set({ ETag: LAB_ETAG, 'Cache-Control': 'no-cache' });
      if (
        ctx
          .get('If-None-Match')
          .split(',')
          .some((tag) => tag.trim() === LAB_ETAG)
      ) {
        if (scenario.revalidate === 'cors') applyPolicy(ctx, scenario.actual);
        if (scenario.revalidate === 'other') applyPolicy(ctx, { ...scenario.actual, allowOrigin: 'other' });
        ctx.status = 304;
        return;
      }
    }
    applyPolicy(ctx, scenario.actual);
    if (scenario.auth === 'bearer' && !BEARER.test(ctx.get('Authorization'))) {
      // The lesson: the actual request needs the token, its preflight (above) never carries one.
      throw new HttpError(
        401,
        'this lab URL asks for Authorization: Bearer <token>',
        { path: LAB_CORS_PATH },
        { 'WWW-Authenticate': 'Bearer realm="lab"' },
      );
    }
    if (scenario.extraHeader !== null) ctx.set(EXTRA_HEADER, scenario.extraHeader);
    if (scenario.cookie !== 'off') ctx.append('Set-Cookie', demoCookie(scenario, ctx.query.mark));
    const body = declaresNoBody(ctx.req) ? NO_BODY : await readSentBody(ctx.req, bodyLimit);
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    const reflected = reflection(ctx, body);
    ctx.body = JSON.stringify({ ...reflected, headers: withoutBrowserCredentials(reflected.headers), scenario });
  };
}
