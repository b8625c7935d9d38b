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
