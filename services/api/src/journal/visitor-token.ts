import type { Context } from 'koa';
/**
 * A visitor's token: made by each page load, carried in the URL of every demonstration request,
 * so that preflights, beacons and EventSource requests (which carry no custom header) are tied
 * to the visitor too. Base64url; 16 characters are 96 random bits, the least we accept.
 */
const VISITOR_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** The query parameter that carries the token. */
export const VISITOR_PARAMETER = 'visitor';

export function isVisitorToken(value: string): boolean {
  return VISITOR_TOKEN.test(value);
}

/** A query string's visitor token and the query without it, as sent (nothing re-encoded). */
export interface TokenInQuery {
  token: string;
  rest: string;
}

/**
 * Finds the visitor parameter in a raw query string by scanning it, not parsing it: this runs on
 * every request, and URLSearchParams cost each tagged one about 0.3 µs more. The first
 * parameter named exactly `visitor` counts; its value is taken as it is (a token is base64url,
 * which never needs decoding, so an encoded one is not a token).
 */
export function takeVisitorToken(query: string): TokenInQuery | null {
  const name = `${VISITOR_PARAMETER}=`;
  let at = query.indexOf(name);
  while (at > 0 && query[at - 1] !== '&') at = query.indexOf(name, at + 1);
  if (at === -1) return null;
  const end = query.indexOf('&', at);
  const token = query.slice(at + name.length, end === -1 ? query.length : end);
  if (!isVisitorToken(token)) return null;
  const before = query.slice(0, Math.max(0, at - 1));
  const after = end === -1 ? '' : query.slice(end + 1);
  return { token, rest: before && after ? `${before}&${after}` : before || after };
}

/**
 * The request's visitor token, found once per request and kept on ctx.state: the journal and the
 * fair-share limits both need it, and this runs on every request.
 */
export function visitorOf(ctx: Context): TokenInQuery | null {
  const state = ctx.state as { visitor?: TokenInQuery | null };
  if (state.visitor === undefined) state.visitor = takeVisitorToken(ctx.querystring);
  return state.visitor;
}
