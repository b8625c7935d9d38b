import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LabCorsReflection, ServerJournalEntry } from '@origin-lab/contract';
import { rawGet } from '@origin-lab/test-kit';
import { ALSO_ALLOWED, apiForFile } from '../start-api.js';
import { labRedirectOrigins } from '../../src/lab/lab-scenario.js';

const api = apiForFile();
const PAGE = 'http://page.example';
const ELSEWHERE = 'https://elsewhere.example';

const preflight = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}/lab/cors?${query}`, {
    method: 'OPTIONS',
    headers: { Origin: PAGE, 'Access-Control-Request-Method': 'PUT', ...headers },
    redirect: 'manual',
  });
const actual = (query: string, init: RequestInit = {}) =>
  fetch(`${api.url}/lab/cors?${query}`, { ...init, headers: { Origin: PAGE, ...init.headers } });

const corsHeadersOf = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'));

describe('the CORS lab: the policy the URL asks for', () => {
  it('by default reflects the origin and says Vary: Origin, on the preflight (204, no body) and the answer', async () => {
    const pre = await preflight('');
    expect(pre.status).toBe(204);
    expect(await pre.text()).toBe('');
    expect(corsHeadersOf(pre)).toEqual({ 'access-control-allow-origin': PAGE, vary: 'Origin' });
    const answer = await actual('');
    expect(answer.status).toBe(200);
    expect(corsHeadersOf(answer)).toEqual({ 'access-control-allow-origin': PAGE, vary: 'Origin' });
  });

  it.each([
    ['allow-origin=none', {}],
    ['allow-origin=*', { 'access-control-allow-origin': '*' }],
    ['allow-origin=origin', { 'access-control-allow-origin': PAGE }],
    ['allow-origin=other', { 'access-control-allow-origin': ELSEWHERE }],
    ['allow-origin=two', { 'access-control-allow-origin': `${PAGE}, ${ELSEWHERE}` }],
    ['allow-origin=null', { 'access-control-allow-origin': 'null' }],
    ['allow-credentials=true', { 'access-control-allow-origin': PAGE, 'access-control-allow-credentials': 'true' }],
    ['allow-credentials=false', { 'access-control-allow-origin': PAGE }],
    [
      'allow-methods=PUT,DELETE',
      { 'access-control-allow-origin': PAGE, 'access-control-allow-methods': 'PUT, DELETE' },
    ],
    ['allow-methods=*', { 'access-control-allow-origin': PAGE, 'access-control-allow-methods': '*' }],
    [
      'allow-headers=X-One, Authorization',
      { 'access-control-allow-origin': PAGE, 'access-control-allow-headers': 'X-One, Authorization' },
    ],
    ['allow-headers=*', { 'access-control-allow-origin': PAGE, 'access-control-allow-headers': '*' }],
    ['allow-headers=', { 'access-control-allow-origin': PAGE, 'access-control-allow-headers': '' }],
    [
      'expose-headers=X-Lab-Extra',
      { 'access-control-allow-origin': PAGE, 'access-control-expose-headers': 'X-Lab-Extra' },
    ],
    ['expose-headers=*', { 'access-control-allow-origin': PAGE, 'access-control-expose-headers': '*' }],
    ['max-age=0', { 'access-control-allow-origin': PAGE, 'access-control-max-age': '0' }],
    ['max-age=86400', { 'access-control-allow-origin': PAGE, 'access-control-max-age': '86400' }],
  ])('%s, on both requests', async (query, expected) => {
    for (const response of [await preflight(query), await actual(query)])
      expect(corsHeadersOf(response)).toEqual({ vary: 'Origin', ...expected });
  });

  it('vary=off leaves Vary out', async () => {
    expect(corsHeadersOf(await actual('vary=off'))).toEqual({ 'access-control-allow-origin': PAGE });
  });

  it('preflight. and actual. set one request each; the plain name sets both, the prefixed one wins', async () => {
    const query = 'allow-origin=*&preflight.allow-headers=X-One&actual.allow-origin=none&actual.expose-headers=*';
    expect(corsHeadersOf(await preflight(query))).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'X-One',
      vary: 'Origin',
    });
    expect(corsHeadersOf(await actual(query))).toEqual({ 'access-control-expose-headers': '*', vary: 'Origin' });
  });

  it.each([200, 204, 401, 404, 500])('preflight-status=%i answers the preflight only with it', async (status) => {
    expect((await preflight(`preflight-status=${status}`)).status).toBe(status);
    expect((await actual(`preflight-status=${status}`)).status).toBe(200);
  });

  it('preflight-status=301 redirects the preflight to the same URL', async () => {
    const pre = await preflight('preflight-status=301', {});
    expect(pre.status).toBe(301);
    expect(pre.headers.get('location')).toBe('/lab/cors?preflight-status=301');
  });

  it('an OPTIONS without Access-Control-Request-Method is an actual request', async () => {
    const answer = await actual('preflight-status=500&actual.allow-methods=GET', { method: 'OPTIONS' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET');
  });

  it('the answer reflects what arrived, like /api/echo, with the scenario it applied', async () => {
    const answer = await actual('allow-origin=*&extra-header=hello there', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer demo' },
      body: '{"a":1}',
    });
    expect(answer.headers.get('x-lab-extra')).toBe('hello there');
    const body = (await answer.json()) as LabCorsReflection;
    expect(body).toMatchObject({
      method: 'POST',
      path: '/lab/cors',
      body: '{"a":1}',
      bodyBytes: 7,
      bodyKind: 'json',
      headers: { authorization: 'Bearer demo', origin: PAGE },
      scenario: { actual: { allowOrigin: '*' }, extraHeader: 'hello there', preflightStatus: 204, cookie: 'off' },
    });
  });
});

describe('the demo cookie', () => {
  it.each([
    ['cookie=none&cookie-secure=true', 'SameSite=None; Secure'],
    ['cookie=none', 'SameSite=None'],
    ['cookie=lax', 'SameSite=Lax'],
    ['cookie=strict&cookie-secure=true', 'SameSite=Strict; Secure'],
    ['cookie=none&cookie-secure=true&cookie-partitioned=true', 'SameSite=None; Secure; Partitioned'],
  ])('%s sets only origin_lab_demo, on its own path', async (query, attributes) => {
    const answer = await actual(query);
    const cookies = answer.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(
      new RegExp(
        `^origin_lab_demo=[0-9TZ-]+; Path=/lab/cors; Max-Age=3600; HttpOnly; ${attributes.replace(/;/g, ';')}$`,
      ),
    );
  });

  it.each([
    ['a plain mark', 'mark=playground-m1x2-ab12', 'playground-m1x2-ab12'],
    ['a mark with a separator', 'mark=a%3Bb', null],
    ['a mark too long', `mark=${'m'.repeat(65)}`, null],
  ])('takes its value from %s only when it is cookie-safe', async (_, query, value) => {
    const [cookie] = (await actual(`cookie=lax&${query}`)).headers.getSetCookie();
    const sent = cookie?.split(';')[0];
    if (value) expect(sent).toBe(`origin_lab_demo=${value}`);
    else expect(sent).toMatch(/^origin_lab_demo=\d{4}-\d\d-\d\dT[0-9-]+Z$/);
  });

  it("is the only cookie the answer reflects: the host's other cookies are counted, never shown", async () => {
    const answer = await actual('', { headers: { Cookie: 'session=secret-value; origin_lab_demo=set-1; other=x' } });
    const body = (await answer.json()) as LabCorsReflection;
    expect(body.headers.cookie).toBe('origin_lab_demo=set-1; (2 other cookies not shown)');
    expect(JSON.stringify(body)).not.toContain('secret-value');
  });

  it('is set on no preflight, and not without cookie=', async () => {
    expect((await preflight('cookie=lax')).headers.getSetCookie()).toEqual([]);
    expect((await actual('')).headers.getSetCookie()).toEqual([]);
  });
});

describe('a Bearer token (auth=bearer)', () => {
  it('answers the actual request 401 without one, with WWW-Authenticate and the policy, so the page reads it', async () => {
    const answer = await actual('auth=bearer');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="lab"');
    expect(corsHeadersOf(answer)).toEqual({ 'access-control-allow-origin': PAGE, vary: 'Origin' });
    expect(((await answer.json()) as { error: string }).error).toMatch(/Authorization: Bearer/);
  });

  it.each([
    ['a Basic credential', 'Basic bGFiOmxhYg=='],
    ['Bearer with no token', 'Bearer '],
    ['a token with a space', 'Bearer two words'],
  ])('refuses %s', async (_, authorization) => {
    expect((await actual('auth=bearer', { headers: { Authorization: authorization } })).status).toBe(401);
  });

  it('answers with any token, and never asks one of the preflight', async () => {
    expect((await actual('auth=bearer', { headers: { Authorization: 'Bearer demo-1.2_3~x+/=' } })).status).toBe(200);
    const pre = await preflight('auth=bearer&allow-headers=Authorization', {
      'Access-Control-Request-Headers': 'authorization',
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toBe('Authorization');
  });
});

describe('Fetch-metadata protection (protect=fetch-metadata)', () => {
  const post = (headers: Record<string, string>) =>
    actual('protect=fetch-metadata', { method: 'POST', body: 'hello', headers });

  it('answers a cross-site POST 403 naming Sec-Fetch-Site, with the CORS headers, so the page reads that it is not CORS', async () => {
    const answer = await post({ 'Sec-Fetch-Site': 'cross-site' });
    expect(answer.status).toBe(403);
    expect(corsHeadersOf(answer)).toEqual({ 'access-control-allow-origin': PAGE, vary: 'Origin' });
    const body = (await answer.json()) as { error: string; protection: string };
    expect(body.protection).toBe('fetch-metadata');
    expect(body.error).toMatch(/POST .*Sec-Fetch-Site: cross-site/);
  });

  it.each([
    ['same-site (only the origin itself may write)', { 'Sec-Fetch-Site': 'same-site' }, 403],
    ['same-origin', { 'Sec-Fetch-Site': 'same-origin' }, 200],
    ['none (typed into the address bar)', { 'Sec-Fetch-Site': 'none' }, 200],
    ['no Sec-Fetch-Site, an Origin that is not the host (plain HTTP on a LAN)', {}, 403],
    ['no Sec-Fetch-Site, Origin: null', { Origin: 'null' }, 403],
  ])('a POST with %s: %i', async (_, headers, status) => {
    expect((await post(headers)).status).toBe(status);
  });

  it('lets through a POST whose Origin names the host it was sent to, and one with neither header (no browser)', async () => {
    const host = new URL(api.url).host;
    expect((await post({ Origin: `http://${host}` })).status).toBe(200);
    const bare = await fetch(`${api.url}/lab/cors?protect=fetch-metadata`, { method: 'POST', body: 'hello' });
    expect(bare.status).toBe(200);
  });

  it('never refuses a safe method, a preflight included', async () => {
    expect((await actual('protect=fetch-metadata', { headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(200);
    expect((await preflight('protect=fetch-metadata', { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(204);
  });
});

describe('revalidation (revalidate)', () => {
  const ETAG = '"origin-lab-1"';
  const again = (query: string) => actual(query, { headers: { 'If-None-Match': ETAG } });

  it('gives the answer an ETag and Cache-Control: no-cache, so a browser keeps it and asks again', async () => {
    const answer = await actual('revalidate=cors');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).toBe(ETAG);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
  });

  it.each([
    ['cors', { 'access-control-allow-origin': PAGE, vary: 'Origin' }],
    ['bare', {}],
    ['other', { 'access-control-allow-origin': ELSEWHERE, vary: 'Origin' }],
  ])('answers a matching If-None-Match 304, with %s CORS headers', async (revalidate, cors) => {
    const answer = await again(`revalidate=${revalidate}`);
    expect(answer.status).toBe(304);
    expect(answer.headers.get('etag')).toBe(ETAG);
    expect(corsHeadersOf(answer)).toEqual(cors);
  });

  it('answers 200 to another ETag, and never 304 without revalidate', async () => {
    expect((await actual('revalidate=cors', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    const plain = await again('');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('etag')).toBeNull();
  });
});

describe('a redirect (redirect-to)', () => {
  const other = encodeURIComponent(ALSO_ALLOWED);
  const manual = (query: string) => actual(query, { redirect: 'manual' });

  it('answers 307 to the lab on the named configured origin, the query kept without the redirect', async () => {
    const answer = await manual(`redirect-to=${other}&allow-origin=none&allow-credentials=true&mark=m-1`);
    expect(answer.status).toBe(307);
    expect(answer.headers.get('location')).toBe(
      `${ALSO_ALLOWED}/lab/cors?allow-origin=none&allow-credentials=true&mark=m-1`,
    );
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // The redirect names the request's origin whatever the final answer's Allow-Origin: each is checked on its own.
    expect(corsHeadersOf(answer)).toEqual({
      'access-control-allow-origin': PAGE,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    });
  });

  it('leaves the CORS headers off the redirect with redirect-cors=false, and puts a user in its URL with redirect-userinfo=true', async () => {
    const answer = await manual(`redirect-to=${other}&redirect-cors=false&redirect-userinfo=true`);
    expect(answer.status).toBe(307);
    expect(corsHeadersOf(answer)).toEqual({});
    const location = new URL(answer.headers.get('location') ?? '');
    expect([location.username, location.password, location.search]).toEqual(['lab', 'lab', '']);
  });

  it("redirects to the third name (SITE_C, c.localhost by default) on an allowed origin's scheme and port only", async () => {
    const third = await manual(`redirect-to=${encodeURIComponent('https://c.localhost')}`);
    expect(third.status).toBe(307);
    expect(third.headers.get('location')).toBe('https://c.localhost/lab/cors');
    for (const elsewhere of ['https://c.localhost:8443', 'http://c.localhost:8080', 'https://d.localhost']) {
      const refused = await manual(`redirect-to=${encodeURIComponent(elsewhere)}`);
      expect(refused.status, elsewhere).toBe(400);
    }
  });

  it('knows the third origins from the allowed ones, and none with SITE_C=none', () => {
    const allowed = ['http://localhost:8080', 'http://127.0.0.1:8080', 'https://a.localhost'];
    expect(labRedirectOrigins(allowed, 'c.localhost')).toEqual([
      ...allowed,
      'http://c.localhost:8080',
      'https://c.localhost',
    ]);
    expect(labRedirectOrigins(allowed, null)).toEqual(allowed);
  });

  it('never redirects a preflight, and the lab it points at answers as asked', async () => {
    expect((await preflight(`redirect-to=${other}`)).status).toBe(204);
    const location = new URL((await manual(`redirect-to=${other}&allow-origin=*`)).headers.get('location') ?? '');
    // The lab on the other origin is this same api: asked there, it answers the rest of the scenario.
    const followed = await actual(location.search.slice(1));
    expect(followed.status).toBe(200);
    expect(corsHeadersOf(followed)).toEqual({ 'access-control-allow-origin': '*', vary: 'Origin' });
    expect(((await followed.json()) as LabCorsReflection).scenario.redirectTo).toBeNull();
  });
});

describe('bad lab URLs: 400 naming the parameter, never a 500', () => {
  it.each([
    ['an unknown name', 'allow-everything=yes', 'allow-everything', /unknown parameter/],
    ['an unknown prefix', 'request.allow-origin=*', 'request.allow-origin', /unknown parameter/],
    ['a prefix on a scenario parameter', 'preflight.cookie=lax', 'preflight.cookie', /unknown parameter/],
    ['a repeated name', 'vary=on&vary=off', 'vary', /more than once/],
    [
      'a value outside its choices',
      'allow-origin=everyone',
      'allow-origin',
      /one of none, \*, origin, other, two, null/,
    ],
    ['a status not offered', 'preflight-status=302', 'preflight-status', /one of 200, 204, 301, 401, 404, 500/],
    ['max-age not a number', 'max-age=soon', 'max-age', /whole number of seconds/],
    ['max-age too large', 'max-age=86401', 'max-age', /whole number of seconds/],
    ['a list item that is not a name', 'allow-headers=X-One,X Two', 'allow-headers', /comma-separated list of names/],
    [
      'too many list items',
      `allow-methods=${Array.from({ length: 21 }, (_, i) => `M${i}`).join(',')}`,
      'allow-methods',
      /at most 20 items/,
    ],
    ['a value too long', `extra-header=${'x'.repeat(257)}`, 'extra-header', /at most 256 characters/],
    ['CR LF in a value (header splitting)', 'extra-header=a%0D%0ASet-Cookie:%20stolen=1', 'extra-header', /no CR, LF/],
    ['LF alone', 'expose-headers=a%0Ab', 'expose-headers', /no CR, LF/],
    ['another control byte', 'extra-header=a%01b', 'extra-header', /no CR, LF/],
    ['a non-ASCII byte', 'extra-header=caf%C3%A9', 'extra-header', /visible ASCII/],
    ['an auth scheme not offered', 'auth=basic', 'auth', /one of off, bearer/],
    ['a revalidation not offered', 'revalidate=always', 'revalidate', /one of off, cors, bare, other/],
    ['a protection not offered', 'protect=csrf-token', 'protect', /one of off, fetch-metadata/],
    ['a redirect off the configured origins', 'redirect-to=https%3A%2F%2Fevil.example', 'redirect-to', /one of /],
    ['a redirect to a path', 'redirect-to=http%3A%2F%2Flocalhost%2Fsteal', 'redirect-to', /one of /],
    ['redirect-cors not true or false', 'redirect-cors=maybe', 'redirect-cors', /one of true, false/],
  ])('%s', async (_, query, parameter, message) => {
    for (const response of [await actual(query), await preflight(query)]) {
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      // The page that built the URL may read why.
      expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
      expect(response.headers.getSetCookie()).toEqual([]);
      const body = (await response.json()) as { error: string; parameter: string };
      expect(body.parameter).toBe(parameter);
      expect(body.error).toMatch(message);
    }
  });

  it('a raw CR LF that reaches the server never becomes a header', async () => {
    // Sent byte for byte, not through a client that would refuse it.
    const answer = await rawGet(api.port, '/lab/cors?extra-header=a%0d%0aX-Injected:%201');
    expect(answer.status).toBe(400);
    expect(answer.headers.has('x-injected')).toBe(false);
  });
});

describe('the lab and the journal', () => {
  it('records its preflight and its answer in the visitor journal, with the policy answered', async () => {
    const visitor = randomBytes(16).toString('base64url');
    await preflight(`allow-origin=*&preflight-status=401&visitor=${visitor}`);
    await actual(`allow-origin=*&visitor=${visitor}`);
    const journal = await fetch(`${api.url}/lab/journal?visitor=${visitor}`, {
      headers: { Accept: 'application/json' },
    });
    const { entries } = (await journal.json()) as { entries: { entry: ServerJournalEntry }[] };
    expect(entries.map(({ entry }) => [entry.method, entry.path, entry.preflight, entry.status, entry.cors])).toEqual([
      ['OPTIONS', '/lab/cors', true, 401, { 'access-control-allow-origin': '*' }],
      ['GET', '/lab/cors', false, 200, { 'access-control-allow-origin': '*' }],
    ]);
  });
});

describe("the browser's own credentials, which any site may read the lab with", () => {
  it.each([
    ['Basic', 'Basic dXNlcjpzZWNyZXQtdmFsdWU=', 'Basic (credentials not shown)'],
    ['Digest', 'Digest username="u", response="secret-value"', 'Digest (credentials not shown)'],
    ['no scheme', 'secret-value', '(not shown)'],
  ])(
    "shows any site the scheme of a browser's own Authorization (%s), never its credentials",
    async (_, authorization, shown) => {
      const answer = await actual('allow-origin=origin&allow-credentials=true', {
        headers: { Authorization: authorization, 'Proxy-Authorization': 'Basic c2VjcmV0LXZhbHVl', Origin: PAGE },
      });
      expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
      const body = await answer.text();
      expect(JSON.parse(body)).toMatchObject({
        headers: { authorization: shown, 'proxy-authorization': '(not shown)' },
      });
      for (const secret of ['secret-value', 'dXNlcjpzZWNyZXQtdmFsdWU', 'c2VjcmV0LXZhbHVl'])
        expect(body).not.toContain(secret);
    },
  );
});
