import { randomBytes } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import {
  LAB_IDP_COOKIE,
  LAB_IDP_PARTITIONED_COOKIE,
  LAB_IDP_PATHS,
  LAB_IDP_STATE_MAX,
  readLabIdpToken,
  type LabIdpSettings,
} from '@origin-lab/contract/lab-idp';
import { HttpError, methodNotAllowed } from '@origin-lab/server-kit';
import { cookieNames } from '../../http/cookie-names.js';
import { readBody } from '../../http/read-body.js';
import type { IdpCodes } from './idp-codes.js';
import { callbackPage, formPostAnswer, framePage, signInForm, webMessageAnswer } from './idp-pages.js';
import { readAuthorizeRequest, STATE, type AuthorizeRequest } from './idp-request.js';

/**
 * The lab's identity provider (`/lab/idp/`), one handler per address: authorize (the sign-in
 * form without a session, the answer with one), sign-in (sets the session cookie with the
 * attributes the authorize request asked for) and token (a code, or the session cookie, for a
 * token, with the CORS an app on another origin needs). What the sign-in lessons vary is in the
 * authorize address's switches (packages/contract/src/lab-idp.ts). Outside /api/.
 */
export interface LabIdpConfig {
  /** The lab's own origins (the api's allowed origins and their SITE_C names): the only answer targets and CORS callers. */
  labOrigins: readonly string[];
  codes: IdpCodes;
  /** The most bytes a form's body may have. */
  bodyBytes: number;
}

/** The session cookie's value: a student the provider made up at sign-in. */
const USER = /^student-[0-9a-f]{16}$/;
const SESSION_SECONDS = 3_600;
const TOKEN_SECONDS = 300;

/** The provider's pages' opener policy, as the authorize request's coop switch asks. */
function openerPolicy(coop: LabIdpSettings['coop']): Record<string, string> {
  return coop === 'report-only'
    ? { 'Cross-Origin-Opener-Policy-Report-Only': 'same-origin' }
    : { 'Cross-Origin-Opener-Policy': coop };
}

function sessionCookie(user: string, settings: LabIdpSettings): string {
  const sameSite = { lax: 'Lax', none: 'None', strict: 'Strict' }[settings.same_site];
  return [
    `${LAB_IDP_COOKIE}=${user}`,
    'Path=/lab/idp/',
    `Max-Age=${SESSION_SECONDS}`,
    'HttpOnly',
    `SameSite=${sameSite}`,
    ...(settings.secure === 'yes' ? ['Secure'] : []),
    ...(settings.partitioned === 'yes' ? ['Partitioned'] : []),
  ].join('; ');
}

/** The signed-in student, if the request carried a session cookie the provider could have set. */
function userOf(ctx: Context): string | null {
  const value = ctx.cookies.get(LAB_IDP_COOKIE);
  return value !== undefined && USER.test(value) ? value : null;
}

/** A form's fields: only application/x-www-form-urlencoded, at most bodyBytes. */
async function formOf(ctx: Context, bodyBytes: number): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw new HttpError(415, 'send the form as application/x-www-form-urlencoded');
  return new URLSearchParams((await readBody(ctx, bodyBytes)).toString('utf8'));
}

function html(ctx: Context, headers: Record<string, string>, body: string): void {
  ctx.set({ ...headers, 'Cache-Control': 'no-store' });
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

/** With a session: a code, answered the way the request asked. */
async function answer(ctx: Context, request: AuthorizeRequest, user: string, codes: IdpCodes): Promise<void> {
  const code = await codes.issue({ redirectUri: request.redirectUri, user });
  const response = { code, state: request.state };
  const headers = openerPolicy(request.settings.coop);
  const appOrigin = new URL(request.redirectUri).origin;
  if (request.settings.response_mode === 'web_message')
    return html(ctx, headers, webMessageAnswer(appOrigin, response));
  if (request.settings.response_mode === 'form_post')
    return html(ctx, headers, formPostAnswer(request.redirectUri, response));
  const back = new URL(request.redirectUri);
  back.searchParams.set('code', code);
  back.searchParams.set('state', request.state);
  ctx.set({ ...headers, 'Cache-Control': 'no-store' });
  ctx.status = 303;
  ctx.redirect(back.href);
}

/** The names of the cookies a request carried (never their values), plain ones only (the page shows them), at most 20. */
function shownCookieNames(header: string): string[] {
  const names = cookieNames(header).filter((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name));
  return [...new Set(names)].slice(0, 20);
}

/**
 * The app's side (`/lab/idp-callback`, on the app's origin): where the provider sends its
 * answer, by a redirect (GET) or a posted form (POST). It says which of the app's cookies came
 * with that request, which is what SameSite decides, to the app's pages.
 */
export function callback(config: LabIdpConfig): Middleware {
  return async (ctx) => {
    const fields = ctx.method === 'POST' ? await formOf(ctx, config.bodyBytes) : new URLSearchParams(ctx.querystring);
    const state = fields.get('state') ?? '';
    if (state !== '' && (state.length > LAB_IDP_STATE_MAX || !STATE.test(state)))
      throw new HttpError(400, 'state is not one the lab could have sent', { parameter: 'state' });
    const heard = { method: ctx.method, state, code: fields.has('code'), cookies: shownCookieNames(ctx.get('Cookie')) };
    html(ctx, {}, callbackPage(heard));
  };
}

/** A new student signed in: the session cookie set with the attributes asked for. */
function newSession(ctx: Context, settings: LabIdpSettings): string {
  const user = `student-${randomBytes(8).toString('hex')}`;
  ctx.set({ 'Set-Cookie': sessionCookie(user, settings), 'Cache-Control': 'no-store' });
  return user;
}

export function authorize(config: LabIdpConfig): Middleware {
  return async (ctx) => {
    const request = readAuthorizeRequest(new URLSearchParams(ctx.querystring), config.labOrigins);
    const user = userOf(ctx) ?? (request.settings.sign_in === 'auto' ? newSession(ctx, request.settings) : null);
    if (user !== null) return answer(ctx, request, user, config.codes);
    html(ctx, openerPolicy(request.settings.coop), signInForm(ctx.querystring, new URL(request.redirectUri).origin));
  };
}

export function signIn(config: LabIdpConfig): Middleware {
  return async (ctx) => {
    const query = (await formOf(ctx, config.bodyBytes)).get('authorize') ?? '';
    const request = readAuthorizeRequest(new URLSearchParams(query), config.labOrigins);
    newSession(ctx, request.settings);
    ctx.status = 303;
    // Back to the provider's own address, never elsewhere: the query was checked above.
    ctx.redirect(`${LAB_IDP_PATHS.authorize}?${new URLSearchParams(query)}`);
  };
}

/** The CORS headers of the token address for this request's Origin (none for an origin not the lab's). */
function tokenCors(ctx: Context, labOrigins: readonly string[]): Record<string, string> {
  const read = readLabIdpToken(new URLSearchParams(ctx.querystring));
  if (!read.ok) throw new HttpError(400, read.error, { parameter: read.parameter });
  const origin = ctx.get('Origin');
  if (read.settings.allow_origin === 'star') return { 'Access-Control-Allow-Origin': '*' };
  if (!labOrigins.includes(origin)) return { Vary: 'Origin' };
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
}

/** The user a token request stands for: a code's (once), or the session cookie's. */
async function grantedUser(ctx: Context, form: URLSearchParams, codes: IdpCodes): Promise<string> {
  const grantType = form.get('grant_type');
  if (grantType === 'session') {
    const user = userOf(ctx);
    if (user === null) throw new HttpError(401, 'login_required: no session cookie came with this request');
    return user;
  }
  if (grantType !== 'authorization_code')
    throw new HttpError(400, 'unsupported_grant_type: grant_type must be authorization_code or session', {
      parameter: 'grant_type',
    });
  const grant = await codes.redeem(form.get('code') ?? '');
  if (grant === null) throw new HttpError(400, 'invalid_grant: the code is unknown, expired or used already');
  if (grant.redirectUri !== form.get('redirect_uri'))
    throw new HttpError(400, 'invalid_grant: redirect_uri is not the one the code was issued for');
  return grant.user;
}

export function token(config: LabIdpConfig): Middleware {
  return async (ctx) => {
    const cors = tokenCors(ctx, config.labOrigins);
    if (ctx.method === 'OPTIONS') {
      ctx.set({ ...cors, 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type' });
      ctx.status = 204;
      return;
    }
    if (ctx.method !== 'POST') throw methodNotAllowed(LAB_IDP_PATHS.token, ['POST', 'OPTIONS']);
    ctx.set({ ...cors, 'Cache-Control': 'no-store' });
    const user = await grantedUser(ctx, await formOf(ctx, config.bodyBytes), config.codes);
    ctx.body = {
      access_token: `lab-${randomBytes(16).toString('base64url')}`,
      token_type: 'Bearer',
      expires_in: TOKEN_SECONDS,
      user,
    };
  };
}

/**
 * The provider in a frame of the app (an embedded or silent sign-in): which of its cookies came
 * with the frame's request, which third-party cookie policies decide. ?set=partitioned sets a
 * Partitioned cookie (CHIPS), kept per top-level site, for the next frame to carry; ?access=ask
 * shows a button that asks for storage access. ?app names the app's origin, one of the lab's,
 * which alone is told.
 */
export function frame(config: LabIdpConfig): Middleware {
  return (ctx) => {
    const query = new URLSearchParams(ctx.querystring);
    const app = query.get('app') ?? '';
    if (!config.labOrigins.includes(app))
      throw new HttpError(400, "app must be one of the lab's origins", { parameter: 'app' });
    const set = query.get('set');
    if (set !== null && set !== 'partitioned')
      throw new HttpError(400, 'set must be partitioned, or absent', { parameter: 'set' });
    const access = query.get('access');
    if (access !== null && access !== 'ask')
      throw new HttpError(400, 'access must be ask, or absent', { parameter: 'access' });
    const headers: Record<string, string> =
      set === 'partitioned'
        ? {
            'Set-Cookie': `${LAB_IDP_PARTITIONED_COOKIE}=1; Path=/lab/idp/; Max-Age=300; SameSite=None; Secure; Partitioned`,
          }
        : {};
    const heard = { session: userOf(ctx) !== null, partitioned: ctx.cookies.get(LAB_IDP_PARTITIONED_COOKIE) === '1' };
    html(ctx, headers, framePage(app, heard, access === 'ask'));
  };
}
