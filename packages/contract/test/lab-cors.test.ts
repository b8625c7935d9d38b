import { describe, expect, it } from 'vitest';
import { fetchMetadataRefusal } from '../src/fetch-metadata.js';
import { labCorsQuery, labCorsUrl, type LabCorsPolicy, type LabCorsScenario } from '../src/index.js';
import { readLabCorsQuery } from '../src/lab-cors-read.js';

// Independent oracles: the default policy and scenario, the URLs and the failures below are
// written out by hand from the lab's documented behaviour, never read from the codec's own lists
// or defaults (LAB_DEFAULT_POLICY, LAB_ALLOW_ORIGINS...), so a change there shows up here.
const POLICY: LabCorsPolicy = {
  allowOrigin: 'origin',
  allowCredentials: false,
  allowMethods: null,
  allowHeaders: null,
  exposeHeaders: null,
  maxAge: null,
  varyOrigin: true,
};
const SCENARIO: LabCorsScenario = {
  preflight: POLICY,
  actual: POLICY,
  preflightStatus: 204,
  extraHeader: null,
  cookie: 'off',
  cookieSecure: false,
  cookiePartitioned: false,
  revalidate: 'off',
  auth: 'off',
  protect: 'off',
  redirectTo: null,
  redirectCors: true,
  redirectUserinfo: false,
};
const LIMITS = { listItems: 3, valueChars: 20, redirectOrigins: ['https://a.localhost', 'https://b.localhost'] };

/** The default scenario with these changes to both policies (and to the scenario). */
const both = (policy: Partial<LabCorsPolicy>, rest: Partial<LabCorsScenario> = {}): LabCorsScenario => ({
  ...SCENARIO,
  preflight: { ...POLICY, ...policy },
  actual: { ...POLICY, ...policy },
  ...rest,
});

/** Scenarios and the one query string each is written as. */
const WRITTEN: [string, LabCorsScenario, string][] = [
  ['the defaults', SCENARIO, ''],
  ['allow-origin *', both({ allowOrigin: '*' }), 'allow-origin=*'],
  ['allow-origin none', both({ allowOrigin: 'none' }), 'allow-origin=none'],
  ['credentials', both({ allowCredentials: true }), 'allow-credentials=true'],
  ['a method list', both({ allowMethods: ['PUT', 'DELETE'] }), 'allow-methods=PUT%2CDELETE'],
  ['an empty header list', both({ allowHeaders: [] }), 'allow-headers='],
  ['expose *', both({ exposeHeaders: '*' }), 'expose-headers=*'],
  ['max-age 0', both({ maxAge: 0 }), 'max-age=0'],
  ['no Vary', both({ varyOrigin: false }), 'vary=off'],
  [
    'the preflight differs',
    { ...SCENARIO, preflight: { ...POLICY, allowOrigin: '*', allowMethods: ['PUT'] }, actual: POLICY },
    'preflight.allow-origin=*&preflight.allow-methods=PUT',
  ],
  [
    'both differ from the default and from each other',
    { ...SCENARIO, preflight: { ...POLICY, allowOrigin: 'two' }, actual: { ...POLICY, allowOrigin: 'other' } },
    'preflight.allow-origin=two&actual.allow-origin=other',
  ],
  [
    'the scenario parameters',
    both({}, { preflightStatus: 301, extraHeader: 'hello there', cookie: 'none', cookieSecure: true }),
    'preflight-status=301&extra-header=hello+there&cookie=none&cookie-secure=true',
  ],
  [
    'a partitioned cookie, revalidation, a Bearer token and a redirect',
    both(
      {},
      {
        cookiePartitioned: true,
        revalidate: 'bare',
        auth: 'bearer',
        redirectTo: 'https://b.localhost',
        redirectCors: false,
        redirectUserinfo: true,
      },
    ),
    'cookie-partitioned=true&revalidate=bare&auth=bearer&redirect-to=https%3A%2F%2Fb.localhost&redirect-cors=false&redirect-userinfo=true',
  ],
  ['Fetch-metadata protection', both({}, { protect: 'fetch-metadata' }), 'protect=fetch-metadata'],
];

describe("the CORS lab's URL, written by the page", () => {
  it.each(WRITTEN)('%s', (_, scenario, query) => {
    expect(labCorsQuery(scenario)).toBe(query);
  });

  it('is the lab path on the origin, with the query only when there is one', () => {
    expect(labCorsUrl('http://a.localhost', SCENARIO)).toBe('http://a.localhost/lab/cors');
    expect(labCorsUrl('http://a.localhost', both({ allowOrigin: '*' }))).toBe(
      'http://a.localhost/lab/cors?allow-origin=*',
    );
  });
});

describe("the CORS lab's URL, read by the api", () => {
  it.each(WRITTEN)('reads back what the page wrote: %s', (_, scenario, query) => {
    expect(readLabCorsQuery(query, LIMITS)).toEqual({ ok: true, scenario });
  });

  it.each([
    ['the visitor and the mark pass through', 'visitor=abc&mark=m-1', SCENARIO],
    [
      'a prefixed value wins over the shared one',
      'vary=off&actual.vary=on',
      {
        ...SCENARIO,
        preflight: { ...POLICY, varyOrigin: false },
        actual: POLICY,
      },
    ],
    [
      'list items are trimmed',
      'allow-headers=X-One, Authorization',
      both({ allowHeaders: ['X-One', 'Authorization'] }),
    ],
    ['false is a value too', 'allow-credentials=false&cookie-secure=false', SCENARIO],
  ] as [string, string, LabCorsScenario][])('%s', (_, query, scenario) => {
    expect(readLabCorsQuery(query, LIMITS)).toEqual({ ok: true, scenario });
  });

  it.each([
    [
      'an unknown name',
      'allow-everything=yes',
      {
        parameter: 'allow-everything',
        error: 'unknown parameter allow-everything',
        detail:
          'known: allow-origin, allow-credentials, allow-methods, allow-headers, expose-headers, max-age, vary, preflight-status, extra-header, cookie, cookie-secure, cookie-partitioned, revalidate, auth, protect, redirect-to, redirect-cors, redirect-userinfo, visitor, mark; a policy parameter may take the prefix preflight. or actual.',
      },
    ],
    ['a repeated name', 'vary=on&vary=off', { parameter: 'vary', error: 'vary was given more than once' }],
    [
      'a value outside its choices',
      'allow-origin=everyone',
      {
        parameter: 'allow-origin',
        error: 'allow-origin must be one of none, *, origin, other, two, null',
        detail: 'got "everyone"',
      },
    ],
    [
      'a prefixed value outside its choices',
      'preflight.allow-origin=x',
      {
        parameter: 'preflight.allow-origin',
        error: 'preflight.allow-origin must be one of none, *, origin, other, two, null',
        detail: 'got "x"',
      },
    ],
    [
      'a status not offered',
      'preflight-status=302',
      {
        parameter: 'preflight-status',
        error: 'preflight-status must be one of 200, 204, 301, 401, 404, 500',
        detail: 'got "302"',
      },
    ],
    [
      'a cookie not offered',
      'cookie=maybe',
      { parameter: 'cookie', error: 'cookie must be one of off, none, lax, strict', detail: 'got "maybe"' },
    ],
    [
      'max-age too large',
      'max-age=86401',
      {
        parameter: 'max-age',
        error: 'max-age must be a whole number of seconds from 0 to 86400',
        detail: 'got "86401"',
      },
    ],
    [
      'more list items than the limit',
      'allow-methods=A,B,C,D',
      { parameter: 'allow-methods', error: 'allow-methods may name at most 3 items', detail: 'got 4' },
    ],
    [
      'a list item that is not a name',
      'allow-headers=X Two',
      {
        parameter: 'allow-headers',
        error: 'allow-headers must be * or a comma-separated list of names',
        detail: '"X Two" is not a name',
      },
    ],
    [
      'a value longer than the limit',
      `extra-header=${'x'.repeat(21)}`,
      { parameter: 'extra-header', error: 'extra-header may be at most 20 characters', detail: 'got 21' },
    ],
    [
      'a line break in a value',
      'extra-header=a%0D%0Ab',
      {
        parameter: 'extra-header',
        error: 'extra-header may hold only visible ASCII characters and spaces (no CR, LF or other control bytes)',
      },
    ],
  ])('refuses %s, naming the parameter', (_, query, failure) => {
    expect(readLabCorsQuery(query, LIMITS)).toEqual({ ok: false, failure });
  });

  it('cuts a long parameter name to 64 characters', () => {
    const name = 'n'.repeat(100);
    const read = readLabCorsQuery(`${name}=1`, LIMITS);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.failure.parameter).toBe('n'.repeat(64));
  });
});

// Go 1.25's http.CrossOriginProtection, as its documentation states it: safe methods pass;
// Sec-Fetch-Site must be same-origin or none; without it, an Origin must match the Host; a request
// with neither passes.
describe('Fetch-metadata protection (fetchMetadataRefusal)', () => {
  const HOST = 'b.localhost:8443';
  it.each([
    ['GET, cross-site', 'GET', 'cross-site', 'https://a.localhost:8443', false],
    ['HEAD, cross-site', 'HEAD', 'cross-site', 'https://a.localhost:8443', false],
    ['OPTIONS, cross-site', 'OPTIONS', 'cross-site', 'https://a.localhost:8443', false],
    ['POST, cross-site', 'POST', 'cross-site', 'https://a.localhost:8443', true],
    ['PUT, same-site', 'PUT', 'same-site', 'https://a.localhost:8443', true],
    ['POST, same-origin', 'POST', 'same-origin', 'https://b.localhost:8443', false],
    ['DELETE, none', 'DELETE', 'none', null, false],
    ['POST, no Sec-Fetch-Site, Origin on another host', 'POST', null, 'http://a.localhost:8443', true],
    ['POST, no Sec-Fetch-Site, Origin on the same host and port', 'POST', null, 'http://b.localhost:8443', false],
    ['POST, no Sec-Fetch-Site, Origin on the same host, another port', 'POST', null, 'http://b.localhost:9443', true],
    ['POST, no Sec-Fetch-Site, Origin: null', 'POST', null, 'null', true],
    ['POST, neither header', 'POST', null, null, false],
    ['post in lower case, cross-site', 'post', 'cross-site', null, true],
  ] as const)('%s', (_, method, secFetchSite, origin, refused) => {
    const refusal = fetchMetadataRefusal({ method, secFetchSite, origin, host: HOST });
    expect(refusal !== null).toBe(refused);
    if (refusal) expect(refusal).toMatch(/^Fetch-metadata protection refuses a [A-Z]+ /);
  });
});
