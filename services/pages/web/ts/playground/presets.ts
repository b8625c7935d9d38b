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
  // A lab URL that asks for a Bearer token: its preflight never carries one and must not need it.
  {
    id: 'bearer-token',
    group: 'Allow-Headers',
    name: 'A Bearer token the server requires: the preflight carries none, the request does',
    fragment: 'headers=Authorization%3A+Bearer+demo&allow-headers=Authorization&auth=on',
  },
  {
    id: 'bearer-missing',
    group: 'Allow-Headers',
    name: 'No token where the server requires one: a 401 the page can read',
    fragment: 'auth=on',
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
  // The web-platform-tests' edge cases of the safelist: a value's form, not only its length.
  {
    id: 'range-single',
    group: 'Safelisting limits',
    name: 'Range with one byte range (bytes=0-99): still simple',
    fragment: 'headers=Range%3A+bytes%3D0-99',
  },
  {
    id: 'range-suffix',
    group: 'Safelisting limits',
    name: 'Range with a suffix range (bytes=-100): preflighted',
    fragment: 'headers=Range%3A+bytes%3D-100&allow-headers=Range',
  },
  {
    id: 'content-type-charset',
    group: 'Safelisting limits',
    name: 'Content-Type text/plain; charset=utf-8: still simple',
    fragment: 'method=POST&body=string&headers=Content-Type%3A+text%2Fplain%3B+charset%3Dutf-8',
  },
  {
    id: 'content-type-quoted',
    group: 'Safelisting limits',
    name: 'Content-Type with a quoted parameter (charset="utf-8"): preflighted',
    fragment:
      'method=POST&body=string&headers=Content-Type%3A+text%2Fplain%3B+charset%3D%22utf-8%22&allow-headers=Content-Type',
  },
  {
    id: 'language-allowed',
    group: 'Safelisting limits',
    name: 'Accept-Language en-US,fr;q=0.5: still simple',
    fragment: 'headers=Accept-Language%3A+en-US%2Cfr%3Bq%3D0.5',
  },
  {
    id: 'language-underscore',
    group: 'Safelisting limits',
    name: 'Accept-Language en_US (an underscore): preflighted',
    fragment: 'headers=Accept-Language%3A+en_US&allow-headers=Accept-Language',
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
  // A CORS request answered with a redirect (307), to the lab on its own origin, the page's or a third.
  {
    id: 'redirect-lab',
    group: 'Redirects',
    name: "Redirected to the lab's own origin: Origin kept, readable",
    fragment: 'redirect=lab',
  },
  {
    id: 'redirect-page',
    group: 'Redirects',
    name: "Redirected to the page's origin: the final request says Origin: null",
    fragment: 'redirect=page',
  },
  // A third origin (SITE_C): the same server under a third name, neither the page's nor the lab's.
  {
    id: 'redirect-third',
    group: 'Redirects',
    name: 'Redirected to a third origin: Origin: null there, readable where null is allowed',
    fragment: 'redirect=third',
  },
  {
    id: 'redirect-third-listed',
    group: 'Redirects',
    name: 'Redirected to a third origin that allows listed origins only: null is not one, refused',
    fragment: 'redirect=third&allow-origin=none',
  },
  {
    id: 'redirect-bare',
    group: 'Redirects',
    name: 'A redirect without CORS headers: refused at the redirect',
    fragment: 'redirect=lab&redirect-cors=off',
  },
  {
    id: 'redirect-final-bare',
    group: 'Redirects',
    name: 'The redirect allows the origin, the answer after it does not: refused there',
    fragment: 'redirect=lab&allow-origin=none',
  },
  {
    id: 'redirect-preflighted',
    group: 'Redirects',
    name: 'A preflighted PUT redirected: a second preflight to the new URL',
    fragment: 'method=PUT&allow-methods=PUT&redirect=lab',
  },
  {
    id: 'redirect-userinfo',
    group: 'Redirects',
    name: 'A redirect to a URL with a user name and password: refused',
    fragment: 'redirect=lab&redirect-userinfo=on',
  },
  {
    id: 'redirect-manual',
    group: 'Redirects',
    name: 'redirect: "manual": an opaque redirect, not followed',
    fragment: 'redirect=lab&redirect-mode=manual',
  },
  {
    id: 'redirect-error',
    group: 'Redirects',
    name: 'redirect: "error": fetch rejects at the redirect',
    fragment: 'redirect=lab&redirect-mode=error',
  },
  // Fetch-metadata protection (protect): a refusal that is not CORS, after CORS let the request through.
  {
    id: 'fetch-metadata-post',
    group: 'Fetch metadata (not CORS)',
    name: 'A cross-origin POST that CORS lets through, refused 403 by Fetch-metadata protection',
    fragment: 'method=POST&body=string&protect=on',
  },
  {
    id: 'fetch-metadata-credentialed',
    group: 'Fetch metadata (not CORS)',
    name: 'A credentialed PUT whose preflight passes, refused 403 all the same',
    fragment: 'method=PUT&body=string&allow-methods=PUT&credentials=include&allow-credentials=on&protect=on',
  },
  {
    id: 'fetch-metadata-get',
    group: 'Fetch metadata (not CORS)',
    name: 'A cross-origin GET: a safe method, let through',
    fragment: 'protect=on',
  },
  {
    id: 'fetch-metadata-same-origin',
    group: 'Fetch metadata (not CORS)',
    name: "A POST from the server's own origin: let through",
    fragment: 'target=self&method=POST&body=string&protect=on',
  },
  // A kept answer sent again and revalidated: a 304 updates the kept answer's headers.
  {
    id: 'revalidate-cors',
    group: 'Revalidation',
    name: 'Revalidated: a 304 with the CORS headers, the kept body read',
    fragment: 'revalidate=cors',
  },
  {
    id: 'revalidate-bare',
    group: 'Revalidation',
    name: "Revalidated: a 304 without CORS headers keeps the kept answer's",
    fragment: 'revalidate=bare',
  },
  {
    id: 'revalidate-other',
    group: 'Revalidation',
    name: 'Revalidated: a 304 naming another origin replaces the kept Allow-Origin',
    fragment: 'revalidate=other',
  },
  // An opaque origin (a sandboxed frame, a data: URL worker) says Origin: null.
  {
    id: 'sandbox-reflected',
    group: 'Opaque origins',
    name: 'From a sandboxed iframe: Origin: null, which a reflecting server allows',
    fragment: 'from=sandbox',
  },
  {
    id: 'sandbox-null',
    group: 'Opaque origins',
    name: 'From a sandboxed iframe, Allow-Origin: null: readable',
    fragment: 'from=sandbox&allow-origin=null',
  },
  {
    id: 'worker-null',
    group: 'Opaque origins',
    name: 'From a data: URL worker, Allow-Origin: null: readable',
    fragment: 'from=worker&allow-origin=null',
  },
  {
    id: 'sandbox-null-credentials',
    group: 'Opaque origins',
    name: 'Allow-Origin: null with credentials: any sandboxed page reads as the user',
    fragment: 'from=sandbox&allow-origin=null&credentials=include&allow-credentials=on',
  },
  {
    id: 'null-from-page',
    group: 'Opaque origins',
    name: 'Allow-Origin: null to a page with an origin: refused',
    fragment: 'allow-origin=null',
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
    id: 'upload-before',
    group: 'no-cors and XHR',
    name: 'XHR POST with an upload listener registered before send(): preflighted',
    fragment: 'api=xhr&method=POST&body=string&upload=before',
  },
  {
    id: 'upload-after',
    group: 'no-cors and XHR',
    name: 'XHR POST with an upload listener registered after send(): simple',
    fragment: 'api=xhr&method=POST&body=string&upload=after',
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
  {
    id: 'cookie-partitioned',
    group: 'Cookies',
    name: 'A cookie with SameSite=None; Secure; Partitioned (CHIPS)',
    fragment: 'credentials=include&allow-credentials=on&cookie=none&cookie-secure=on&cookie-partitioned=on',
  },
];
