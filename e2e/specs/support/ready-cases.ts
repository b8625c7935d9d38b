import { fileURLToPath } from 'node:url';
import type { EngineName } from '@origin-lab/contract';
import { trustworthy } from './trustworthy.js';

export type Triple = [preflight: boolean, sent: boolean, readable: boolean];

/**
 * One ready case. An engine's field (firefox, webkit) says what that engine measurably does
 * instead of `does`; an engine whose outcome is not the spec's gets the page's known-difference
 * verdict, every other one agree.
 */
export interface Expected extends Partial<Record<EngineName, Triple>> {
  /** What the browser does, written out from the spec. */
  does: Triple;
  /** Whether script sees X-Lab-Extra, for the cases that set it and can read the answer. */
  extraVisible?: boolean;
  /** The status the page reads, for the cases about it. */
  status?: number;
  /** What the page's "what the server saw" must say (the journal's view), for the cases about it. */
  serverSaw?: (origins: { self: string; other: string }, engine: EngineName) => string[];
  /** Where an engine measurably parts from the spec: the spec's outcome, which the page predicts (else `does`). */
  spec?: Triple;
  /** What the Why must say, for the cases about a refusal that is not CORS. */
  why?: RegExp;
}

// Every ready case, its outcome written out from SPEC.md by hand (not taken from the page's prediction).
// The cookie cases are asserted only as far as the spec speaks (the requests); whether the cookie
// comes back is where it says browsers differ, so that is recorded, not asserted.
export const EXPECTED: Record<string, Expected> = {
  'origin-allowed': { does: [false, true, true] },
  'origin-absent': { does: [false, true, false] },
  'origin-other': { does: [false, true, false] },
  'origin-two': { does: [false, true, false] },
  'origin-star': { does: [false, true, true] },
  'origin-star-credentials': { does: [false, true, false] },
  'methods-listed': { does: [true, true, true] },
  'methods-missing': { does: [true, false, false] },
  'methods-star': { does: [true, true, true] },
  'methods-star-credentials': { does: [true, false, false] },
  'json-allowed': { does: [true, true, true] },
  'json-refused': { does: [true, false, false] },
  'headers-star': { does: [true, true, true] },
  'headers-star-credentials': { does: [true, false, false] },
  // The spec: Authorization must be named. Measured (Chromium 156, Firefox ESR 153, WebKitGTK 2.50.6): * lets it through.
  'authorization-star': { does: [true, true, true], spec: [true, false, false] },
  'authorization-named': { does: [true, true, true] },
  // The lab's auth=bearer answers 401 without a token; a preflight never carries one and is answered as ever.
  'bearer-token': {
    does: [true, true, true],
    status: 200,
    serverSaw: ({ self }) => [
      `The preflight (Origin: ${self}): OPTIONS answered 204`,
      `The request (Origin: ${self}, with Authorization): GET answered 200`,
    ],
  },
  'bearer-missing': {
    does: [false, true, true],
    status: 401,
    serverSaw: ({ self }) => [`The request (Origin: ${self}): GET answered 401`],
  },
  'expose-none': { does: [false, true, true], extraVisible: false },
  'expose-named': { does: [false, true, true], extraVisible: true },
  'expose-star': { does: [false, true, true], extraVisible: true },
  'expose-star-credentials': { does: [false, true, true], extraVisible: false },
  'max-age': { does: [true, true, true] },
  'max-age-credentials': { does: [true, true, true] },
  'credentials-missing': { does: [false, true, false] },
  'credentials-allowed': { does: [false, true, true] },
  'preflight-without-allow-credentials': { does: [true, false, false] },
  'preflight-passes-answer-refused': { does: [true, true, false] },
  'value-128': { does: [false, true, true] },
  'value-129': { does: [true, true, true] },
  // Measured (Firefox ESR 153): values each under 128 bytes never preflight, whatever their total.
  // (Chromium 156 and WebKitGTK 2.50.6 preflight, as the spec says.)
  'total-over-1024': { does: [true, true, true], firefox: [false, true, true], spec: [true, true, true] },
  'unsafe-byte': { does: [true, true, true] },
  // Fetch's safelist reads Range as one range "bytes=first-[last]", a Content-Type by its essence
  // (parameters allowed, no unsafe byte such as "), Accept-Language by its characters.
  'range-single': { does: [false, true, true] },
  'range-suffix': { does: [true, true, true] },
  'content-type-charset': { does: [false, true, true] },
  'content-type-quoted': { does: [true, true, true] },
  'language-allowed': { does: [false, true, true] },
  'language-underscore': { does: [true, true, true] },
  'preflight-401': { does: [true, false, false] },
  'preflight-404': { does: [true, false, false] },
  'preflight-500': { does: [true, false, false] },
  'preflight-301': { does: [true, false, false] },
  // Fetch's HTTP-redirect fetch: the 307 gets the CORS check; a hop from the lab's origin to another
  // taints the origin (Origin: null, which the lab's reflected origin allows); a Location with a user
  // name and password is refused off the page's origin; a preflighted request preflights again;
  // "manual" gives an opaque redirect, "error" rejects.
  'redirect-lab': {
    does: [false, true, true],
    serverSaw: ({ self }) => [
      `The request (Origin: ${self}): GET answered 307`,
      `After the redirect, the request (Origin: ${self})`,
    ],
  },
  'redirect-page': {
    does: [false, true, true],
    serverSaw: ({ self }) => [
      `The request (Origin: ${self}): GET answered 307`,
      'After the redirect, the request (Origin: null)',
    ],
  },
  // A third origin (the stack's third name): the hop is from the lab's origin to another, so
  // tainted as well; the lab there reflects null (readable) or, like an allowlist, says nothing.
  'redirect-third': {
    does: [false, true, true],
    serverSaw: ({ self }) => [
      `The request (Origin: ${self}): GET answered 307`,
      'After the redirect, the request (Origin: null)',
    ],
  },
  'redirect-third-listed': {
    does: [false, true, false],
    serverSaw: ({ self }) => [
      `The request (Origin: ${self}): GET answered 307, access-control-allow-origin: ${self}`,
      'After the redirect, the request (Origin: null): GET answered 200, no CORS headers',
    ],
  },
  'redirect-bare': { does: [false, true, false] },
  'redirect-final-bare': {
    does: [false, true, false],
    serverSaw: ({ self }) => [
      `The request (Origin: ${self}): GET answered 307, access-control-allow-origin: ${self}`,
      `After the redirect, the request (Origin: ${self}): GET answered 200, no CORS headers`,
    ],
  },
  'redirect-preflighted': {
    does: [true, true, true],
    serverSaw: ({ self }) => [
      `The request (Origin: ${self}): PUT answered 307`,
      `After the redirect, a preflight (Origin: ${self})`,
      `After the redirect, the request (Origin: ${self}): PUT answered 200`,
    ],
  },
  'redirect-userinfo': { does: [false, true, false] },
  'redirect-manual': { does: [false, true, false] },
  'redirect-error': { does: [false, true, false] },
  // Fetch-metadata protection, as Go 1.25's CrossOriginProtection: an unsafe method is refused unless
  // Sec-Fetch-Site says same-origin (or, with no Sec-Fetch-Site, as on lan's plain HTTP, unless the
  // Origin names the host asked). CORS still decides what the page reads: here the 403.
  'fetch-metadata-post': {
    does: [false, true, true],
    status: 403,
    serverSaw: ({ self }) => [
      `The request (Origin: ${self}): POST answered 403`,
      ...(trustworthy(self) ? ['Sec-Fetch-Site: cross-site, Sec-Fetch-Mode: cors, Sec-Fetch-Dest: empty'] : []),
    ],
    why: /^The page could read the answer: CORS let it through.Not CORS: the request reached the server, whose Fetch-metadata protection refused it \(403\)/,
  },
  'fetch-metadata-credentialed': {
    does: [true, true, true],
    status: 403,
    serverSaw: ({ self }) => [
      `The preflight (Origin: ${self}): OPTIONS answered 204`,
      `The request (Origin: ${self}): PUT answered 403`,
    ],
    why: /Not CORS: .*Fetch-metadata protection refused it \(403\)/,
  },
  'fetch-metadata-get': { does: [false, true, true], status: 200 },
  'fetch-metadata-same-origin': {
    does: [false, true, true],
    status: 200,
    serverSaw: ({ self }) => [
      `The request (Origin: ${self}): POST answered 200`,
      ...(trustworthy(self) ? ['Sec-Fetch-Site: same-origin, Sec-Fetch-Mode: cors, Sec-Fetch-Dest: empty'] : []),
    ],
  },
  // HTTP caching (RFC 9111, 4.3.4): a 304 updates the kept answer's headers with its own, and Fetch's
  // CORS check reads the updated answer. A browser need not keep an answer at all: measured,
  // WebKitGTK 2.50.6 keeps none of these (Cache-Control: no-cache, Vary: Origin), sends the request
  // again without If-None-Match and reads a fresh 200, so no 304 ever comes.
  'revalidate-cors': {
    does: [false, true, true],
    serverSaw: ({ self }, engine) => [
      `The request (Origin: ${self}): GET answered 200`,
      `Sent again, the request (Origin: ${self}): GET answered ${engine === 'webkit' ? 200 : 304}`,
    ],
  },
  'revalidate-bare': {
    does: [false, true, true],
    serverSaw: ({ self }, engine) => [
      engine === 'webkit'
        ? `Sent again, the request (Origin: ${self}): GET answered 200, access-control-allow-origin`
        : `Sent again, the request (Origin: ${self}): GET answered 304, no CORS headers`,
    ],
  },
  'revalidate-other': { does: [false, true, false], webkit: [false, true, true] },
  // An opaque origin serializes as "null": Allow-Origin must be null (or *, or the reflected Origin) to let it read.
  'sandbox-reflected': { does: [false, true, true], serverSaw: () => ['The request (Origin: null): GET answered 200'] },
  'sandbox-null': { does: [false, true, true] },
  'worker-null': { does: [false, true, true], serverSaw: () => ['The request (Origin: null): GET answered 200'] },
  'sandbox-null-credentials': { does: [false, true, true] },
  'null-from-page': { does: [false, true, false] },
  'no-cors': { does: [false, true, false] },
  'no-cors-put': { does: [false, false, false] },
  'xhr-refused': { does: [false, true, false] },
  // XMLHttpRequest's send() sets the use-CORS-preflight flag when xhr.upload has a listener by then.
  'upload-before': { does: [true, true, true] },
  'upload-after': { does: [false, true, true] },
  'same-origin': { does: [false, true, true] },
  // The two origins of every stack are different sites, as the browser's own Sec-Fetch-Site says:
  // localhost and 127.0.0.1 (embedded), a.localhost and b.localhost (caddy, compose). Fetch
  // Metadata goes only to a potentially trustworthy URL, so plain HTTP on a LAN name (lan:
  // *.nip.io and *.sslip.io, two registrable domains) carries none. A fetch() is mode cors, and its
  // destination is the empty string (Sec-Fetch-Dest: empty).
  'cookie-none-secure': {
    does: [false, true, true],
    serverSaw: ({ self }) =>
      trustworthy(self) ? ['(Sec-Fetch-Site: cross-site, Sec-Fetch-Mode: cors, Sec-Fetch-Dest: empty)'] : [],
  },
  'cookie-none': { does: [false, true, true] },
  'cookie-lax': { does: [false, true, true] },
  'cookie-strict': { does: [false, true, true] },
  'cookie-partitioned': { does: [false, true, true] },
};

/**
 * The groups of ready cases a secure context changes: Fetch Metadata is sent only to a potentially
 * trustworthy URL (Fetch, "append a request's Sec-Fetch-* headers"), and a Secure or Partitioned
 * cookie is set and sent only over one (RFC 6265bis; CHIPS), SameSite=None only with Secure. No
 * other step of Fetch's CORS checks looks at whether the page is a secure context.
 */
export const SECURE_CONTEXT_GROUPS: readonly string[] = ['Fetch metadata (not CORS)', 'Cookies'];

/**
 * The ready cases to send from a page at origin: every one from a secure context; outside one
 * (lan's plain-HTTP names), only those a secure context changes, since every other outcome is the
 * one a secure context gets (the engines page shows them there).
 */
export function casesFrom<T extends { group: string }>(origin: string, presets: readonly T[]): T[] {
  return trustworthy(origin) ? [...presets] : presets.filter((preset) => SECURE_CONTEXT_GROUPS.includes(preset.group));
}

/** Where the engines page's records live (the build publishes them under /engine-records/). */
export const RECORDS = fileURLToPath(new URL('../../../services/pages/engine-records/', import.meta.url));
