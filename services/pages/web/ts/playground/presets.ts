/**
 * Ready cases for the playground, each a form state as the page's address fragment holds it
 * (fields left out keep their defaults). Together they walk SPEC.md's header and wildcard
 * matrix row by row, its credentials rules, the safelisting limits, failing preflights, no-cors
 * and the SameSite cookies. The e2e suite runs every one in each engine and records the outcome
 * under its id (the engines page), so an id never changes meaning: add a new one instead.
 */
export interface Preset {
  id: string;
  /** The row of the spec it belongs to: the option group in the list, the section on the engines page. */
  group: string;
  name: string;
  fragment: string;
}

const bytes = (count: number) => 'a'.repeat(count);
/** Nine Accept-Language values of 120 bytes: each safelisted, together over 1024. */
const NINE_LANGUAGES = Array.from({ length: 9 }, () => `Accept-Language%3A+${bytes(120)}`).join('%0A');

export const PRESETS: readonly Preset[] = [
  // Access-Control-Allow-Origin: who may read.
  { id: 'origin-allowed', group: 'Allow-Origin', name: 'A simple GET, origin named: readable', fragment: '' },
  {
    id: 'origin-absent',
    group: 'Allow-Origin',
    name: 'No Access-Control-Allow-Origin: sent, not readable',
    fragment: 'allow-origin=none',
  },
  {
    id: 'origin-other',
    group: 'Allow-Origin',
    name: 'Allow-Origin names another origin',
    fragment: 'allow-origin=other',
  },
  { id: 'origin-two', group: 'Allow-Origin', name: 'Allow-Origin with two values', fragment: 'allow-origin=two' },
  {
    id: 'origin-star',
    group: 'Allow-Origin',
    name: 'Allow-Origin * without credentials: readable',
    fragment: 'allow-origin=*',
  },
  {
    id: 'origin-star-credentials',
    group: 'Allow-Origin',
    name: 'Allow-Origin * with credentials: refused',
    fragment: 'allow-origin=*&credentials=include&allow-credentials=on',
  },
  // Access-Control-Allow-Methods: what the preflight approves.
  {
    id: 'methods-listed',
    group: 'Allow-Methods',
    name: 'PUT named in Allow-Methods',
    fragment: 'method=PUT&allow-methods=PUT',
  },
  {
    id: 'methods-missing',
    group: 'Allow-Methods',
    name: 'PUT not in Allow-Methods: the preflight fails',
    fragment: 'method=PUT&allow-methods=GET%2C+POST',
  },
  {
    id: 'methods-star',
    group: 'Allow-Methods',
    name: 'PUT under Allow-Methods: *',
    fragment: 'method=PUT&allow-methods=*',
  },
  {
    id: 'methods-star-credentials',
    group: 'Allow-Methods',
    name: 'PUT under Allow-Methods: * with credentials: refused',
    fragment: 'method=PUT&allow-methods=*&credentials=include&allow-credentials=on',
  },
  // Access-Control-Allow-Headers: which unsafe request headers may be sent.
  {
    id: 'json-allowed',
    group: 'Allow-Headers',
    name: 'JSON POST: preflighted, Content-Type allowed',
    fragment: 'method=POST&body=json&allow-headers=Content-Type',
  },
  {
    id: 'json-refused',
    group: 'Allow-Headers',
    name: 'JSON POST, Content-Type not allowed: the preflight fails',
    fragment: 'method=POST&body=json',
  },
  {
    id: 'headers-star',
    group: 'Allow-Headers',
    name: 'A custom header under Allow-Headers: *',
    fragment: 'headers=X-Demo%3A+1&allow-headers=*',
  },
  {
    id: 'headers-star-credentials',
    group: 'Allow-Headers',
    name: 'A custom header under Allow-Headers: * with credentials: refused',
    fragment: 'headers=X-Demo%3A+1&allow-headers=*&credentials=include&allow-credentials=on',
  },
  {
    id: 'authorization-star',
    group: 'Allow-Headers',
    name: 'Authorization is not covered by Allow-Headers: *',
    fragment: 'headers=Authorization%3A+Bearer+demo&allow-headers=*',
  },
  {
    id: 'authorization-named',
    group: 'Allow-Headers',
    name: 'Authorization named in Allow-Headers',
    fragment: 'headers=Authorization%3A+Bearer+demo&allow-headers=Authorization',
  },
  // Access-Control-Expose-Headers: which answer headers script may read.
  {
    id: 'expose-none',
    group: 'Expose-Headers',
    name: 'X-Lab-Extra not exposed: hidden from script',
    fragment: 'extra-header=hello',
  },
  {
    id: 'expose-named',
    group: 'Expose-Headers',
    name: 'X-Lab-Extra named in Expose-Headers: visible',
    fragment: 'extra-header=hello&expose-headers=X-Lab-Extra',
  },
  {
    id: 'expose-star',
    group: 'Expose-Headers',
    name: 'Expose-Headers: * without credentials: visible',
    fragment: 'extra-header=hello&expose-headers=*',
  },
  {
    id: 'expose-star-credentials',
    group: 'Expose-Headers',
    name: 'Expose-Headers: * with credentials: hidden',
    fragment: 'extra-header=hello&expose-headers=*&credentials=include&allow-credentials=on',
  },
  // Access-Control-Max-Age: how long the preflight's answer may be kept.
  {
    id: 'max-age',
    group: 'Max-Age',
    name: 'A preflight answer kept 600 seconds',
    fragment: 'method=PUT&allow-methods=PUT&max-age=600',
  },
  {
    id: 'max-age-credentials',
    group: 'Max-Age',
    name: 'Max-Age with credentials: unchanged',
    fragment: 'method=PUT&allow-methods=PUT&max-age=600&credentials=include&allow-credentials=on',
  },
  // The credentials rules that the preflight and the answer each check.
  {
    id: 'credentials-missing',
    group: 'Credentials',
    name: 'Credentials without Allow-Credentials: refused',
    fragment: 'credentials=include',
  },
  {
    id: 'credentials-allowed',
    group: 'Credentials',
    name: 'Credentials with the origin named and Allow-Credentials: readable',
    fragment: 'credentials=include&allow-credentials=on',
  },
  {
    id: 'preflight-without-allow-credentials',
    group: 'Credentials',
    name: 'A credentialed preflight answered without Allow-Credentials: the request is never sent',
    fragment:
      'method=PUT&allow-methods=PUT&credentials=include&allow-credentials=on&split=on&preflight.allow-credentials=off',
  },
  {
    id: 'preflight-passes-answer-refused',
    group: 'Credentials',
    name: 'The preflight passes, the answer has no Allow-Origin: the handler ran, the page reads nothing',
    fragment: 'method=PUT&allow-methods=PUT&allow-origin=none&split=on&preflight.allow-origin=origin',
  },
  // The safelisting limits.
  {
    id: 'value-128',
    group: 'Safelisting limits',
    name: 'Content-Language of 128 bytes: still simple',
    fragment: `headers=Content-Language%3A+${bytes(128)}`,
  },
  {
    id: 'value-129',
    group: 'Safelisting limits',
    name: 'Content-Language of 129 bytes: preflighted',
    fragment: `headers=Content-Language%3A+${bytes(129)}&allow-headers=Content-Language`,
  },
  {
    id: 'total-over-1024',
    group: 'Safelisting limits',
    name: 'Nine Accept-Language values of 120 bytes, over 1024 together: preflighted',
    fragment: `headers=${NINE_LANGUAGES}&allow-headers=Accept-Language`,
  },
  {
    id: 'unsafe-byte',
    group: 'Safelisting limits',
    name: 'An Accept value with a CORS-unsafe byte ("): preflighted',
    fragment: 'headers=Accept%3A+text%2F%22plain%22&allow-headers=Accept',
  },
  // A preflight that does not answer 2xx.
  {
    id: 'preflight-401',
    group: 'Preflight status',
    name: 'A 401 preflight',
    fragment: 'method=PUT&allow-methods=PUT&preflight-status=401',
  },
  {
    id: 'preflight-404',
    group: 'Preflight status',
    name: 'A 404 preflight',
    fragment: 'method=PUT&allow-methods=PUT&preflight-status=404',
  },
  {
    id: 'preflight-500',
    group: 'Preflight status',
    name: 'A 500 preflight',
    fragment: 'method=PUT&allow-methods=PUT&preflight-status=500',
  },
  {
    id: 'preflight-301',
    group: 'Preflight status',
    name: 'A redirected (301) preflight',
    fragment: 'method=PUT&allow-methods=PUT&preflight-status=301',
  },
  // no-cors and XMLHttpRequest.
  {
    id: 'no-cors',
    group: 'no-cors and XHR',
    name: 'no-cors: sent, opaque',
    fragment: 'mode=no-cors&allow-origin=none',
  },
  {
    id: 'no-cors-put',
    group: 'no-cors and XHR',
    name: 'no-cors with PUT: fetch rejects, nothing sent',
    fragment: 'mode=no-cors&method=PUT',
  },
  {
    id: 'xhr-refused',
    group: 'no-cors and XHR',
    name: 'XMLHttpRequest, origin not allowed: status 0',
    fragment: 'api=xhr&allow-origin=none',
  },
  {
    id: 'same-origin',
    group: 'no-cors and XHR',
    name: 'Same origin, no CORS headers at all: readable',
    fragment: 'target=self&allow-origin=none',
  },
  // The demo cookie, set cross-site by the answer, then asked for by a second credentialed request.
  {
    id: 'cookie-none-secure',
    group: 'Cookies',
    name: 'A cookie with SameSite=None; Secure',
    fragment: 'credentials=include&allow-credentials=on&cookie=none&cookie-secure=on',
  },
  {
    id: 'cookie-none',
    group: 'Cookies',
    name: 'A cookie with SameSite=None without Secure',
    fragment: 'credentials=include&allow-credentials=on&cookie=none',
  },
  {
    id: 'cookie-lax',
    group: 'Cookies',
    name: 'A cookie with SameSite=Lax',
    fragment: 'credentials=include&allow-credentials=on&cookie=lax&cookie-secure=on',
  },
  {
    id: 'cookie-strict',
    group: 'Cookies',
    name: 'A cookie with SameSite=Strict',
    fragment: 'credentials=include&allow-credentials=on&cookie=strict&cookie-secure=on',
  },
];
