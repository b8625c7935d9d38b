import { describe, expect, it } from 'vitest';
import type { LabCorsPolicy, LabCorsScenario } from '@origin-lab/contract';
import { predict, type PlannedRequest } from '../src/rules/predict.js';

// A deliberate test oracle: the lab's default policy written out by hand, not read from the
// contract's LAB_DEFAULT_POLICY, so a change there shows up here.
const POLICY: LabCorsPolicy = {
  allowOrigin: 'origin',
  allowCredentials: false,
  allowMethods: null,
  allowHeaders: null,
  exposeHeaders: null,
  maxAge: null,
  varyOrigin: true,
};

const scenario = (both: Partial<LabCorsPolicy> = {}, rest: Partial<LabCorsScenario> = {}): LabCorsScenario => ({
  preflight: { ...POLICY, ...both },
  actual: { ...POLICY, ...both },
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
  ...rest,
});

const request = (overrides: Partial<PlannedRequest> = {}): PlannedRequest => ({
  method: 'GET',
  headers: [],
  credentials: false,
  mode: 'cors',
  forcedPreflight: null,
  crossOrigin: true,
  ...overrides,
});

const ANSWER_HEADERS = ['content-type', 'content-length', 'x-lab-extra', 'vary', 'set-cookie'];

describe('predict: preflight or not, and why', () => {
  it.each([
    ['a simple GET', request(), false, /simple request/],
    ['PUT', request({ method: 'PUT' }), true, /method PUT/],
    [
      'a JSON Content-Type',
      request({ method: 'POST', headers: [['Content-Type', 'application/json']] }),
      true,
      /Content-Type: application\/json is not CORS-safelisted/,
    ],
    [
      'text/plain',
      request({ method: 'POST', headers: [['Content-Type', 'text/plain;charset=UTF-8']] }),
      false,
      /simple/,
    ],
    ['Content-Language of 128 bytes', request({ headers: [['Content-Language', 'a'.repeat(128)]] }), false, /simple/],
    [
      'Content-Language of 129 bytes',
      request({ headers: [['Content-Language', 'a'.repeat(129)]] }),
      true,
      /129 bytes, over 128/,
    ],
    [
      'safelisted values over 1024 bytes in all',
      request({ headers: Array.from({ length: 9 }, () => ['Accept-Language', 'a'.repeat(120)] as [string, string]) }),
      true,
      /1080 bytes, over 1024/,
    ],
    ['Authorization', request({ headers: [['Authorization', 'Bearer x']] }), true, /Authorization/],
    [
      'a ReadableStream body',
      request({ method: 'POST', forcedPreflight: 'a ReadableStream body always preflights' }),
      true,
      /ReadableStream/,
    ],
  ])('%s', (_, planned, preflighted, why) => {
    const prediction = predict(planned, scenario({ allowHeaders: '*', allowMethods: '*' }), ANSWER_HEADERS);
    expect(prediction.preflight.sent).toBe(preflighted);
    expect(prediction.preflight.why).toMatch(why);
  });
});

describe('predict: the header and wildcard matrix, and credentials', () => {
  const withHeader = request({ headers: [['X-One', '1']] });
  const withAuth = request({ headers: [['Authorization', 'Bearer x']] });
  const credentialed = (r: PlannedRequest) => ({ ...r, credentials: true });
  it.each([
    ['header listed', withHeader, scenario({ allowHeaders: ['x-one'] }), true, null],
    ['header not listed', withHeader, scenario({ allowHeaders: ['x-two'] }), false, 'header-not-allowed'],
    ['header under *', withHeader, scenario({ allowHeaders: '*' }), true, null],
    [
      'header under * with credentials',
      credentialed(withHeader),
      scenario({ allowHeaders: '*', allowCredentials: true }),
      false,
      'header-not-allowed',
    ],
    ['Authorization under *', withAuth, scenario({ allowHeaders: '*' }), false, 'authorization-not-covered'],
    ['Authorization named', withAuth, scenario({ allowHeaders: ['Authorization'] }), true, null],
    ['PUT under * methods', request({ method: 'PUT' }), scenario({ allowMethods: '*' }), true, null],
    [
      'PUT under * with credentials',
      credentialed(request({ method: 'PUT' })),
      scenario({ allowMethods: '*', allowCredentials: true }),
      false,
      'method-not-allowed',
    ],
    ['origin *', request(), scenario({ allowOrigin: '*' }), true, null],
    [
      'origin * with credentials',
      credentialed(request()),
      scenario({ allowOrigin: '*', allowCredentials: true }),
      false,
      'wildcard-with-credentials',
    ],
    ['credentials without Allow-Credentials', credentialed(request()), scenario(), false, 'credentials-not-allowed'],
    ['credentials with Allow-Credentials', credentialed(request()), scenario({ allowCredentials: true }), true, null],
    ['no Allow-Origin', request(), scenario({ allowOrigin: 'none' }), false, 'no-allow-origin'],
    ['another origin', request(), scenario({ allowOrigin: 'other' }), false, 'origin-mismatch'],
    ['two origins', request(), scenario({ allowOrigin: 'two' }), false, 'allow-origin-list'],
  ] as const)('%s', (_, planned, lab, readable, rule) => {
    // The rule of the refusal (Fetch's CORS check and preflight checks, refusal.ts); its words are that module's.
    const prediction = predict(planned, lab, ANSWER_HEADERS);
    expect(prediction.readable).toBe(readable);
    expect(prediction.failureRule).toBe(rule);
    if (rule) expect(prediction.failure).toEqual(expect.any(String));
    else expect(prediction.failure).toBeNull();
  });

  it.each([401, 404, 500, 301])('a preflight answered %i fails, and the request is never sent', (status) => {
    const prediction = predict(
      request({ method: 'PUT' }),
      scenario({ allowMethods: ['PUT'] }, { preflightStatus: status as 401 }),
      ANSWER_HEADERS,
    );
    expect(prediction.preflight).toMatchObject({ sent: true, passes: false });
    expect(prediction.sent).toBe(false);
  });

  it('a preflight that passes while the actual answer does not: sent, handled, not readable', () => {
    const lab = scenario(
      {},
      { actual: { ...POLICY, allowOrigin: 'none' }, preflight: { ...POLICY, allowMethods: ['PUT'] } },
    );
    const prediction = predict(request({ method: 'PUT' }), lab, ANSWER_HEADERS);
    expect(prediction).toMatchObject({ preflight: { sent: true, passes: true }, sent: true, readable: false });
  });
});

describe('predict: what script may read, no-cors, same origin', () => {
  it('reads the safelisted headers only, plus what Expose-Headers names; never Set-Cookie', () => {
    expect(predict(request(), scenario(), ANSWER_HEADERS).visibleHeaders).toEqual(['content-type', 'content-length']);
    expect(predict(request(), scenario({ exposeHeaders: ['X-Lab-Extra'] }), ANSWER_HEADERS).visibleHeaders).toEqual([
      'content-type',
      'content-length',
      'x-lab-extra',
    ]);
    expect(predict(request(), scenario({ exposeHeaders: '*' }), ANSWER_HEADERS).visibleHeaders).toEqual([
      'content-type',
      'content-length',
      'x-lab-extra',
      'vary',
    ]);
    // With credentials, * in Expose-Headers is the literal name "*".
    const credentialed = request({ credentials: true });
    expect(
      predict(credentialed, scenario({ exposeHeaders: '*', allowCredentials: true }), ANSWER_HEADERS).visibleHeaders,
    ).toEqual(['content-type', 'content-length']);
  });

  it('no-cors: sent, never readable; a method other than GET, HEAD, POST is refused before sending', () => {
    expect(predict(request({ mode: 'no-cors' }), scenario({ allowOrigin: 'none' }), ANSWER_HEADERS)).toMatchObject({
      preflight: { sent: false },
      sent: true,
      readable: false,
    });
    expect(predict(request({ mode: 'no-cors', method: 'PUT' }), scenario(), ANSWER_HEADERS)).toMatchObject({
      sent: false,
      failure: expect.stringMatching(/rejects before sending/),
    });
    expect(
      predict(request({ mode: 'no-cors', headers: [['X-One', '1']] }), scenario(), ANSWER_HEADERS).failure,
    ).toMatch(/X-One dropped before sending/);
  });

  it('same origin: no preflight, readable whatever the policy', () => {
    expect(
      predict(request({ crossOrigin: false, method: 'PUT' }), scenario({ allowOrigin: 'none' }), ANSWER_HEADERS),
    ).toMatchObject({ preflight: { sent: false }, readable: true });
  });
});

describe('predict: a CORS request answered with a redirect (Fetch, HTTP-redirect fetch)', () => {
  const PAGE = 'https://a.localhost';
  const LAB = 'https://b.localhost';
  const origins = { page: PAGE, lab: LAB };
  const redirected = (overrides: Partial<PlannedRequest> = {}) => request({ origins, ...overrides });
  const to = (redirectTo: string, rest: Partial<LabCorsScenario> = {}, both: Partial<LabCorsPolicy> = {}) =>
    scenario(both, { redirectTo, ...rest });
  const outcome = (prediction: ReturnType<typeof predict>) => [
    prediction.preflight.sent,
    prediction.sent,
    prediction.readable,
    prediction.failureRule,
  ];

  it.each([
    ["to the lab's own origin: the Origin kept, readable", redirected(), to(LAB), [false, true, true, null]],
    [
      "to the page's origin: the origin tainted, Origin: null, which the reflected origin allows",
      redirected(),
      to(PAGE),
      [false, true, true, null],
    ],
    [
      'the redirect passes, the answer after it names another origin: refused there',
      redirected(),
      to(PAGE, {}, { allowOrigin: 'other' }),
      [false, true, false, 'origin-mismatch'],
    ],
    [
      'the redirect passes, the answer after it has no Allow-Origin: refused there',
      redirected(),
      to(LAB, {}, { allowOrigin: 'none' }),
      [false, true, false, 'no-allow-origin'],
    ],
    [
      'a redirect without CORS headers: refused at the redirect',
      redirected(),
      to(LAB, { redirectCors: false }),
      [false, true, false, 'no-allow-origin'],
    ],
    [
      'a user name and password in the Location, off the page origin: refused',
      redirected(),
      to(LAB, { redirectUserinfo: true }),
      [false, true, false, null],
    ],
    [
      "a user name and password in the Location, on the page's origin: followed",
      redirected(),
      to(PAGE, { redirectUserinfo: true }),
      [false, true, true, null],
    ],
    ['redirect: "manual"', redirected({ redirectMode: 'manual' }), to(LAB), [false, true, false, null]],
    ['redirect: "error"', redirected({ redirectMode: 'error' }), to(LAB), [false, true, false, null]],
    [
      'redirect: "manual" still checks the redirect answer',
      redirected({ redirectMode: 'manual' }),
      to(LAB, { redirectCors: false }),
      [false, true, false, 'no-allow-origin'],
    ],
    [
      'a preflighted PUT: preflighted again after the redirect',
      redirected({ method: 'PUT' }),
      to(LAB, {}, { allowMethods: ['PUT'] }),
      [true, true, true, null],
    ],
  ])('%s', (_, planned, lab, expected) => {
    expect(outcome(predict(planned, lab, ANSWER_HEADERS))).toEqual(expected);
  });

  it('says which answer refused: the redirect, or the one after it', () => {
    expect(predict(redirected(), to(LAB, { redirectCors: false }), ANSWER_HEADERS).failure).toMatch(
      /^At the redirect \(307\)/,
    );
    expect(predict(redirected(), to(LAB, {}, { allowOrigin: 'none' }), ANSWER_HEADERS).failure).toMatch(
      /^In the answer/,
    );
  });

  it('says why the final request carries Origin: null when the origin was tainted', () => {
    const prediction = predict(redirected({ method: 'PUT' }), to(PAGE, {}, { allowMethods: ['PUT'] }), ANSWER_HEADERS);
    expect(prediction.preflight.why).toMatch(/preflighted again after the redirect.*Origin: null/);
  });
});

describe('predict: revalidation, a 304 updating the kept answer (RFC 9111, 4.3.4)', () => {
  it.each([
    ['a 304 with the CORS headers', 'cors', true],
    ["a 304 without CORS headers: the kept answer's stay", 'bare', true],
    ['a 304 naming another origin: it replaces the kept one', 'other', false],
  ] as const)('%s', (_, revalidate, readable) => {
    const prediction = predict(request(), scenario({}, { revalidate }), ANSWER_HEADERS);
    expect([prediction.sent, prediction.readable]).toEqual([true, readable]);
    if (!readable) expect(prediction.failure).toMatch(/The 304's headers replace the kept answer's/);
  });
});

describe('predict: an opaque origin (a sandboxed frame, a data: URL worker) says Origin: null', () => {
  it.each([
    ['the origin reflected: null, allowed', { allowOrigin: 'origin' }, true, null],
    ['Allow-Origin: null', { allowOrigin: 'null' }, true, null],
    ['Allow-Origin: *', { allowOrigin: '*' }, true, null],
    ['another origin', { allowOrigin: 'other' }, false, 'origin-mismatch'],
  ] as const)('%s', (_, policy, readable, rule) => {
    const prediction = predict(request({ opaqueOrigin: true }), scenario(policy), ANSWER_HEADERS);
    expect([prediction.readable, prediction.failureRule]).toEqual([readable, rule]);
  });

  it('Allow-Origin: null does not let a page with an origin read', () => {
    expect(predict(request(), scenario({ allowOrigin: 'null' }), ANSWER_HEADERS).failureRule).toBe('origin-mismatch');
  });
});

describe('predict: Fetch-metadata protection refuses what CORS lets through (not CORS)', () => {
  const protect = (policy: Partial<LabCorsPolicy> = {}, rest: Partial<LabCorsScenario> = {}) =>
    scenario(policy, { protect: 'fetch-metadata', ...rest });

  it('a cross-origin POST reaches the server and is answered 403, which CORS lets the page read', () => {
    const prediction = predict(request({ method: 'POST' }), protect(), ANSWER_HEADERS);
    expect([prediction.sent, prediction.readable, prediction.serverRefusal?.status]).toEqual([true, true, 403]);
    expect(prediction.serverRefusal?.why).toMatch(/not CORS/);
  });

  it('a credentialed PUT passes its preflight, then is refused 403 all the same', () => {
    const prediction = predict(
      request({ method: 'PUT', credentials: true }),
      protect({ allowMethods: ['PUT'], allowCredentials: true }),
      ANSWER_HEADERS,
    );
    expect([prediction.preflight.passes, prediction.readable, prediction.serverRefusal?.status]).toEqual([
      true,
      true,
      403,
    ]);
  });

  it('comes before a redirect, and the 403 is still checked by CORS', () => {
    const prediction = predict(
      request({ method: 'POST' }),
      protect({ allowOrigin: 'none' }, { redirectTo: 'https://lab.example' }),
      ANSWER_HEADERS,
    );
    expect([prediction.readable, prediction.failureRule, prediction.serverRefusal?.status]).toEqual([
      false,
      'no-allow-origin',
      403,
    ]);
  });

  it.each([
    ['a cross-origin GET (a safe method)', request(), undefined],
    ['a same-origin POST', request({ method: 'POST', crossOrigin: false }), undefined],
  ])('lets through %s', (_, planned, refusal) => {
    expect(predict(planned, protect(), ANSWER_HEADERS).serverRefusal).toEqual(refusal);
  });
});
