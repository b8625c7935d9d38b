import { describe, expect, it } from 'vitest';
import { refusalOf, variesByOrigin, type Answer, type CorsRequest } from '../src/rules/refusal.js';

// Each expectation is the Fetch standard's, step by step: "CORS check" (an answer's
// Access-Control-Allow-Origin and -Credentials) and "CORS-preflight fetch" (an ok status, then
// methods compared byte for byte, header names case-insensitively, * only without credentials and
// never for Authorization).

const PAGE = 'https://app.example.com';
const request = (overrides: Partial<CorsRequest> = {}): CorsRequest => ({
  origin: PAGE,
  method: 'GET',
  unsafeHeaders: [],
  credentials: false,
  ...overrides,
});
const answer = (headers: Record<string, string>, status = 200): Answer => ({ status, headers });

describe('the CORS check of an answer', () => {
  it('passes the exact origin', () => {
    expect(refusalOf(request(), { actual: answer({ 'access-control-allow-origin': PAGE }) })).toBeNull();
  });

  it('passes * without credentials', () => {
    expect(refusalOf(request(), { actual: answer({ 'access-control-allow-origin': '*' }) })).toBeNull();
  });

  it('refuses an answer without Access-Control-Allow-Origin, which still reached the page', () => {
    expect(refusalOf(request(), { actual: answer({}) })).toMatchObject({
      rule: 'no-allow-origin',
      stage: 'actual',
      step: 'CORS check',
      requestSent: true,
    });
  });

  it('refuses * with credentials, even with Allow-Credentials: true', () => {
    expect(
      refusalOf(request({ credentials: true }), {
        actual: answer({ 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' }),
      }),
    ).toMatchObject({ rule: 'wildcard-with-credentials', value: '*' });
  });

  it.each([
    ['another host', 'https://other.example.com'],
    ['the http twin', 'http://app.example.com'],
    ['a trailing slash', 'https://app.example.com/'],
    ['another port', 'https://app.example.com:8443'],
  ])('refuses %s: the origin must match exactly', (_name, value) => {
    expect(refusalOf(request(), { actual: answer({ 'access-control-allow-origin': value }) })).toMatchObject({
      rule: 'origin-mismatch',
      value,
    });
  });

  it('refuses two origins in one header', () => {
    expect(
      refusalOf(request(), { actual: answer({ 'access-control-allow-origin': `${PAGE}, https://b.example` }) }),
    ).toMatchObject({ rule: 'allow-origin-list' });
  });

  it('with credentials, wants Allow-Credentials exactly "true"', () => {
    const allowed = { 'access-control-allow-origin': PAGE };
    expect(refusalOf(request({ credentials: true }), { actual: answer(allowed) })).toMatchObject({
      rule: 'credentials-not-allowed',
      header: 'access-control-allow-credentials',
    });
    expect(
      refusalOf(request({ credentials: true }), {
        actual: answer({ ...allowed, 'access-control-allow-credentials': 'True' }),
      }),
    ).toMatchObject({ rule: 'credentials-not-allowed', value: 'True' });
    expect(
      refusalOf(request({ credentials: true }), {
        actual: answer({ ...allowed, 'access-control-allow-credentials': 'true' }),
      }),
    ).toBeNull();
  });

  it('lets "null" read when the page is an opaque origin and the server allows null', () => {
    expect(
      refusalOf(request({ origin: 'null' }), { actual: answer({ 'access-control-allow-origin': 'null' }) }),
    ).toBeNull();
  });
});

describe("the checks of a preflight's answer", () => {
  const allowing = (extra: Record<string, string> = {}, status = 204) =>
    answer({ 'access-control-allow-origin': PAGE, ...extra }, status);

  it('stops the request on a status that is not 2xx', () => {
    expect(refusalOf(request({ method: 'PUT' }), { preflight: allowing({}, 401) })).toMatchObject({
      rule: 'preflight-status',
      stage: 'preflight',
      step: 'CORS-preflight fetch',
      requestSent: false,
    });
  });

  it('a 403 that also fails the CORS check is the origin refused, the fix the origin not the status', () => {
    const put = request({ method: 'PUT' });
    expect(refusalOf(put, { preflight: answer({}, 403) })).toMatchObject({
      rule: 'no-allow-origin',
      stage: 'preflight',
      header: 'access-control-allow-origin',
      requestSent: false,
      text: expect.stringMatching(/403, .*refuses the origin https:\/\/app\.example\.com/),
    });
    expect(
      refusalOf(put, { preflight: answer({ 'access-control-allow-origin': 'https://other.example' }, 403) }),
    ).toMatchObject({ rule: 'origin-mismatch', stage: 'preflight', value: 'https://other.example' });
    // A 403 that names the page's origin: something after the CORS code refused; a 401 without
    // CORS headers: authentication answered before it. The status is at fault in both.
    expect(refusalOf(put, { preflight: allowing({}, 403) })).toMatchObject({ rule: 'preflight-status' });
    expect(refusalOf(put, { preflight: answer({}, 401) })).toMatchObject({ rule: 'preflight-status' });
  });

  it('never follows a redirected preflight', () => {
    expect(
      refusalOf(request({ method: 'PUT' }), { preflight: allowing({ location: 'https://elsewhere.example/' }, 301) }),
    ).toMatchObject({ rule: 'preflight-redirect', value: 'https://elsewhere.example/' });
  });

  it('runs the CORS check on the preflight too', () => {
    expect(refusalOf(request({ method: 'PUT' }), { preflight: answer({}, 204) })).toMatchObject({
      rule: 'no-allow-origin',
      stage: 'preflight',
      requestSent: false,
    });
  });

  it('wants a method other than GET, HEAD, POST listed, byte for byte', () => {
    expect(
      refusalOf(request({ method: 'PUT' }), { preflight: allowing({ 'access-control-allow-methods': 'GET, POST' }) }),
    ).toMatchObject({ rule: 'method-not-allowed' });
    expect(
      refusalOf(request({ method: 'PATCH' }), { preflight: allowing({ 'access-control-allow-methods': 'patch' }) }),
    ).toMatchObject({ rule: 'method-not-allowed', text: expect.stringMatching(/byte for byte/) });
    expect(
      refusalOf(request({ method: 'PUT' }), { preflight: allowing({ 'access-control-allow-methods': 'GET, PUT' }) }),
    ).toBeNull();
  });

  it('lets * cover any method only without credentials', () => {
    const preflight = answer({
      'access-control-allow-origin': PAGE,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': '*',
    });
    expect(refusalOf(request({ method: 'DELETE' }), { preflight })).toBeNull();
    expect(refusalOf(request({ method: 'DELETE', credentials: true }), { preflight })).toMatchObject({
      rule: 'method-not-allowed',
    });
  });

  it('compares header names without regard to case', () => {
    expect(
      refusalOf(request({ unsafeHeaders: ['X-Trace'] }), {
        preflight: allowing({ 'access-control-allow-headers': 'x-trace' }),
      }),
    ).toBeNull();
    expect(
      refusalOf(request({ unsafeHeaders: ['X-Trace', 'X-Other'] }), {
        preflight: allowing({ 'access-control-allow-headers': 'X-TRACE' }),
      }),
    ).toMatchObject({ rule: 'header-not-allowed', text: expect.stringMatching(/X-Other/) });
  });

  it('never lets * cover Authorization, which must be named', () => {
    expect(
      refusalOf(request({ unsafeHeaders: ['Authorization'] }), {
        preflight: allowing({ 'access-control-allow-headers': '*' }),
      }),
    ).toMatchObject({ rule: 'authorization-not-covered' });
    expect(
      refusalOf(request({ unsafeHeaders: ['Authorization'] }), {
        preflight: allowing({ 'access-control-allow-headers': 'authorization' }),
      }),
    ).toBeNull();
  });

  it('lets * cover other headers only without credentials', () => {
    const preflight = answer({
      'access-control-allow-origin': PAGE,
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': '*',
    });
    expect(refusalOf(request({ unsafeHeaders: ['X-Trace'] }), { preflight })).toBeNull();
    expect(refusalOf(request({ unsafeHeaders: ['X-Trace'], credentials: true }), { preflight })).toMatchObject({
      rule: 'header-not-allowed',
    });
  });

  it('checks the answer after a preflight that passed', () => {
    expect(
      refusalOf(request({ method: 'PUT' }), {
        preflight: allowing({ 'access-control-allow-methods': 'PUT' }),
        actual: answer({}),
      }),
    ).toMatchObject({ rule: 'no-allow-origin', stage: 'actual', requestSent: true });
  });
});

describe('Vary', () => {
  it.each([
    ['Origin', true],
    ['Accept-Encoding, origin', true],
    ['*', true],
    ['Accept-Encoding', false],
    [undefined, false],
  ])('Vary: %s varies by Origin: %s', (vary, expected) => {
    expect(variesByOrigin(answer(vary === undefined ? {} : { vary }))).toBe(expected);
  });
});
