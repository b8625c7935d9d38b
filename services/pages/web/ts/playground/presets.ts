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

/** A ready case as the table writes it (its group is the table's row it sits in). */
type Row = [id: string, name: string, fragment: string];

/** The ready cases by group, in the order the list and the engines page show them. */
const TABLE: [group: string, rows: Row[]][] = [
  [
    'Allow-Origin',
    [
      // Access-Control-Allow-Origin: who may read.
      ['origin-allowed', 'A simple GET, origin named: readable', ''],
      ['origin-absent', 'No Access-Control-Allow-Origin: sent, not readable', 'allow-origin=none'],
      ['origin-other', 'Allow-Origin names another origin', 'allow-origin=other'],
      ['origin-two', 'Allow-Origin with two values', 'allow-origin=two'],
      ['origin-star', 'Allow-Origin * without credentials: readable', 'allow-origin=*'],
      [
        'origin-star-credentials',
        'Allow-Origin * with credentials: refused',
        'allow-origin=*&credentials=include&allow-credentials=on',
      ],
    ],
  ],
  [
    'Allow-Methods',
    [
      // Access-Control-Allow-Methods: what the preflight approves.
      ['methods-listed', 'PUT named in Allow-Methods', 'method=PUT&allow-methods=PUT'],
      ['methods-missing', 'PUT not in Allow-Methods: the preflight fails', 'method=PUT&allow-methods=GET%2C+POST'],
      ['methods-star', 'PUT under Allow-Methods: *', 'method=PUT&allow-methods=*'],
      [
        'methods-star-credentials',
        'PUT under Allow-Methods: * with credentials: refused',
        'method=PUT&allow-methods=*&credentials=include&allow-credentials=on',
      ],
    ],
  ],
  [
    'Allow-Headers',
    [
      // Access-Control-Allow-Headers: which unsafe request headers may be sent.
      [
        'json-allowed',
        'JSON POST: preflighted, Content-Type allowed',
        'method=POST&body=json&allow-headers=Content-Type',
      ],
      ['json-refused', 'JSON POST, Content-Type not allowed: the preflight fails', 'method=POST&body=json'],
      ['headers-star', 'A custom header under Allow-Headers: *', 'headers=X-Demo%3A+1&allow-headers=*'],
      [
        'headers-star-credentials',
        'A custom header under Allow-Headers: * with credentials: refused',
        'headers=X-Demo%3A+1&allow-headers=*&credentials=include&allow-credentials=on',
      ],
      [
        'authorization-star',
        'Authorization is not covered by Allow-Headers: *',
        'headers=Authorization%3A+Bearer+demo&allow-headers=*',
      ],
      [
        'authorization-named',
        'Authorization named in Allow-Headers',
        'headers=Authorization%3A+Bearer+demo&allow-headers=Authorization',
      ],
      // A lab URL that asks for a Bearer token: its preflight never carries one and must not need it.
      [
        'bearer-token',
        'A Bearer token the server requires: the preflight carries none, the request does',
        'headers=Authorization%3A+Bearer+demo&allow-headers=Authorization&auth=on',
      ],
      ['bearer-missing', 'No token where the server requires one: a 401 the page can read', 'auth=on'],
    ],
  ],
  [
    'Expose-Headers',
    [
      // Access-Control-Expose-Headers: which answer headers script may read.
      ['expose-none', 'X-Lab-Extra not exposed: hidden from script', 'extra-header=hello'],
      ['expose-named', 'X-Lab-Extra named in Expose-Headers: visible', 'extra-header=hello&expose-headers=X-Lab-Extra'],
      ['expose-star', 'Expose-Headers: * without credentials: visible', 'extra-header=hello&expose-headers=*'],
      [
        'expose-star-credentials',
        'Expose-Headers: * with credentials: hidden',
        'extra-header=hello&expose-headers=*&credentials=include&allow-credentials=on',
      ],
    ],
  ],
  [
    'Max-Age',
    [
      // Access-Control-Max-Age: how long the preflight's answer may be kept.
      ['max-age', 'A preflight answer kept 600 seconds', 'method=PUT&allow-methods=PUT&max-age=600'],
      [
        'max-age-credentials',
        'Max-Age with credentials: unchanged',
        'method=PUT&allow-methods=PUT&max-age=600&credentials=include&allow-credentials=on',
      ],
    ],
  ],
  [
    'Credentials',
    [
      // The credentials rules that the preflight and the answer each check.
      ['credentials-missing', 'Credentials without Allow-Credentials: refused', 'credentials=include'],
      [
        'credentials-allowed',
        'Credentials with the origin named and Allow-Credentials: readable',
        'credentials=include&allow-credentials=on',
      ],
      [
        'preflight-without-allow-credentials',
        'A credentialed preflight answered without Allow-Credentials: the request is never sent',
        'method=PUT&allow-methods=PUT&credentials=include&allow-credentials=on&split=on&preflight.allow-credentials=off',
      ],
      [
        'preflight-passes-answer-refused',
        'The preflight passes, the answer has no Allow-Origin: the handler ran, the page reads nothing',
        'method=PUT&allow-methods=PUT&allow-origin=none&split=on&preflight.allow-origin=origin',
      ],
    ],
  ],
  [
    'Safelisting limits',
    [
      // The safelisting limits.
      ['value-128', 'Content-Language of 128 bytes: still simple', `headers=Content-Language%3A+${bytes(128)}`],
      [
        'value-129',
        'Content-Language of 129 bytes: preflighted',
        `headers=Content-Language%3A+${bytes(129)}&allow-headers=Content-Language`,
      ],
      [
        'total-over-1024',
        'Nine Accept-Language values of 120 bytes, over 1024 together: preflighted',
        `headers=${NINE_LANGUAGES}&allow-headers=Accept-Language`,
      ],
      [
        'unsafe-byte',
        'An Accept value with a CORS-unsafe byte ("): preflighted',
        'headers=Accept%3A+text%2F%22plain%22&allow-headers=Accept',
      ],
      // The web-platform-tests' edge cases of the safelist: a value's form, not only its length.
      ['range-single', 'Range with one byte range (bytes=0-99): still simple', 'headers=Range%3A+bytes%3D0-99'],
      [
        'range-suffix',
        'Range with a suffix range (bytes=-100): preflighted',
        'headers=Range%3A+bytes%3D-100&allow-headers=Range',
      ],
      [
        'content-type-charset',
        'Content-Type text/plain; charset=utf-8: still simple',
        'method=POST&body=string&headers=Content-Type%3A+text%2Fplain%3B+charset%3Dutf-8',
      ],
      [
        'content-type-quoted',
        'Content-Type with a quoted parameter (charset="utf-8"): preflighted',
        'method=POST&body=string&headers=Content-Type%3A+text%2Fplain%3B+charset%3D%22utf-8%22&allow-headers=Content-Type',
      ],
      [
        'language-allowed',
        'Accept-Language en-US,fr;q=0.5: still simple',
        'headers=Accept-Language%3A+en-US%2Cfr%3Bq%3D0.5',
      ],
      [
        'language-underscore',
        'Accept-Language en_US (an underscore): preflighted',
        'headers=Accept-Language%3A+en_US&allow-headers=Accept-Language',
      ],
    ],
  ],
  [
    'Preflight status',
    [
      // A preflight that does not answer 2xx.
      ['preflight-401', 'A 401 preflight', 'method=PUT&allow-methods=PUT&preflight-status=401'],
      ['preflight-404', 'A 404 preflight', 'method=PUT&allow-methods=PUT&preflight-status=404'],
      ['preflight-500', 'A 500 preflight', 'method=PUT&allow-methods=PUT&preflight-status=500'],
      ['preflight-301', 'A redirected (301) preflight', 'method=PUT&allow-methods=PUT&preflight-status=301'],
    ],
  ],
  [
    'Redirects',
    [
      // A CORS request answered with a redirect (307), to the lab on its own origin, the page's or a third.
      ['redirect-lab', "Redirected to the lab's own origin: Origin kept, readable", 'redirect=lab'],
      ['redirect-page', "Redirected to the page's origin: the final request says Origin: null", 'redirect=page'],
      // A third origin (SITE_C): the same server under a third name, neither the page's nor the lab's.
      [
        'redirect-third',
        'Redirected to a third origin: Origin: null there, readable where null is allowed',
        'redirect=third',
      ],
      [
        'redirect-third-listed',
        'Redirected to a third origin that allows listed origins only: null is not one, refused',
        'redirect=third&allow-origin=none',
      ],
      ['redirect-bare', 'A redirect without CORS headers: refused at the redirect', 'redirect=lab&redirect-cors=off'],
      [
        'redirect-final-bare',
        'The redirect allows the origin, the answer after it does not: refused there',
        'redirect=lab&allow-origin=none',
      ],
      [
        'redirect-preflighted',
        'A preflighted PUT redirected: a second preflight to the new URL',
        'method=PUT&allow-methods=PUT&redirect=lab',
      ],
      [
        'redirect-userinfo',
        'A redirect to a URL with a user name and password: refused',
        'redirect=lab&redirect-userinfo=on',
      ],
      ['redirect-manual', 'redirect: "manual": an opaque redirect, not followed', 'redirect=lab&redirect-mode=manual'],
      ['redirect-error', 'redirect: "error": fetch rejects at the redirect', 'redirect=lab&redirect-mode=error'],
    ],
  ],
  [
    'Fetch metadata (not CORS)',
    [
      // Fetch-metadata protection (protect): a refusal that is not CORS, after CORS let the request through.
      [
        'fetch-metadata-post',
        'A cross-origin POST that CORS lets through, refused 403 by Fetch-metadata protection',
        'method=POST&body=string&protect=on',
      ],
      [
        'fetch-metadata-credentialed',
        'A credentialed PUT whose preflight passes, refused 403 all the same',
        'method=PUT&body=string&allow-methods=PUT&credentials=include&allow-credentials=on&protect=on',
      ],
      ['fetch-metadata-get', 'A cross-origin GET: a safe method, let through', 'protect=on'],
      [
        'fetch-metadata-same-origin',
        "A POST from the server's own origin: let through",
        'target=self&method=POST&body=string&protect=on',
      ],
    ],
  ],
  [
    'Revalidation',
    [
      // A kept answer sent again and revalidated: a 304 updates the kept answer's headers.
      ['revalidate-cors', 'Revalidated: a 304 with the CORS headers, the kept body read', 'revalidate=cors'],
      ['revalidate-bare', "Revalidated: a 304 without CORS headers keeps the kept answer's", 'revalidate=bare'],
      [
        'revalidate-other',
        'Revalidated: a 304 naming another origin replaces the kept Allow-Origin',
        'revalidate=other',
      ],
    ],
  ],
  [
    'Opaque origins',
    [
      // An opaque origin (a sandboxed frame, a data: URL worker) says Origin: null.
      ['sandbox-reflected', 'From a sandboxed iframe: Origin: null, which a reflecting server allows', 'from=sandbox'],
      ['sandbox-null', 'From a sandboxed iframe, Allow-Origin: null: readable', 'from=sandbox&allow-origin=null'],
      ['worker-null', 'From a data: URL worker, Allow-Origin: null: readable', 'from=worker&allow-origin=null'],
      [
        'sandbox-null-credentials',
        'Allow-Origin: null with credentials: any sandboxed page reads as the user',
        'from=sandbox&allow-origin=null&credentials=include&allow-credentials=on',
      ],
      ['null-from-page', 'Allow-Origin: null to a page with an origin: refused', 'allow-origin=null'],
    ],
  ],
  [
    'no-cors and XHR',
    [
      // no-cors and XMLHttpRequest.
      ['no-cors', 'no-cors: sent, opaque', 'mode=no-cors&allow-origin=none'],
      ['no-cors-put', 'no-cors with PUT: fetch rejects, nothing sent', 'mode=no-cors&method=PUT'],
      ['xhr-refused', 'XMLHttpRequest, origin not allowed: status 0', 'api=xhr&allow-origin=none'],
      [
        'upload-before',
        'XHR POST with an upload listener registered before send(): preflighted',
        'api=xhr&method=POST&body=string&upload=before',
      ],
      [
        'upload-after',
        'XHR POST with an upload listener registered after send(): simple',
        'api=xhr&method=POST&body=string&upload=after',
      ],
      ['same-origin', 'Same origin, no CORS headers at all: readable', 'target=self&allow-origin=none'],
    ],
  ],
  [
    'Cookies',
    [
      // The demo cookie, set cross-site by the answer, then asked for by a second credentialed request.
      [
        'cookie-none-secure',
        'A cookie with SameSite=None; Secure',
        'credentials=include&allow-credentials=on&cookie=none&cookie-secure=on',
      ],
      [
        'cookie-none',
        'A cookie with SameSite=None without Secure',
        'credentials=include&allow-credentials=on&cookie=none',
      ],
      [
        'cookie-lax',
        'A cookie with SameSite=Lax',
        'credentials=include&allow-credentials=on&cookie=lax&cookie-secure=on',
      ],
      [
        'cookie-strict',
        'A cookie with SameSite=Strict',
        'credentials=include&allow-credentials=on&cookie=strict&cookie-secure=on',
      ],
      [
        'cookie-partitioned',
        'A cookie with SameSite=None; Secure; Partitioned (CHIPS)',
        'credentials=include&allow-credentials=on&cookie=none&cookie-secure=on&cookie-partitioned=on',
      ],
    ],
  ],
];

export const PRESETS: readonly Preset[] = TABLE.flatMap(([group, rows]) =>
  rows.map(([id, name, fragment]) => ({ id, group, name, fragment })),
);
