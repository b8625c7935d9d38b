import { describe, expect, it } from 'vitest';
import { ALLOWED, ALSO_ALLOWED, apiForFile } from '../start-api.js';

/**
 * The lab's identity provider, from OAuth 2.0 (RFC 6749: the authorization code grant, its
 * errors, a code used at most once), OAuth's response modes (query; form_post, "OAuth 2.0 Form
 * Post Response Mode"; web_message, a message to the opener), RFC 6265bis for the session
 * cookie's attributes, HTML for Cross-Origin-Opener-Policy and Fetch for the token address's CORS.
 * Bad input is a 400 that names the parameter, and is never followed anywhere.
 */
const api = apiForFile();
const FOREIGN = 'https://attacker.example';
const CALLBACK = `${ALLOWED}/lab/idp-callback`;

function authorizeQuery(extra: Record<string, string> = {}, base = { redirect_uri: CALLBACK }): string {
  return new URLSearchParams({ client_id: 'origin-lab', state: 'abc-123', ...base, ...extra }).toString();
}

const authorize = (query: string, cookie?: string) =>
  fetch(`${api.url}/lab/idp/authorize?${query}`, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });

const signIn = (query: string) =>
  fetch(`${api.url}/lab/idp/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ authorize: query }).toString(),
  });

/** Signs in with these switches: the session cookie as a browser would send it back, and the Set-Cookie line. */
async function session(extra: Record<string, string> = {}) {
  const answer = await signIn(authorizeQuery(extra));
  const line = answer.headers.get('set-cookie') ?? '';
  return { cookie: line.split(';')[0]!, line, answer };
}

const token = (body: Record<string, string>, headers: Record<string, string> = {}, query = '') =>
  fetch(`${api.url}/lab/idp/token${query}`, {
    method: 'POST',
    headers: { Origin: ALLOWED, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });

/** A code for CALLBACK, from a signed-in authorize in query mode. */
async function code(): Promise<string> {
  const { cookie } = await session();
  const answer = await authorize(authorizeQuery(), cookie);
  return new URL(answer.headers.get('location')!).searchParams.get('code')!;
}

describe('the identity provider: signing in', () => {
  it('answers authorize without a session with its sign-in form, which posts back to it', async () => {
    const answer = await authorize(authorizeQuery());
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await answer.text();
    expect(page).toContain('<form method="post" action="/lab/idp/sign-in">');
    expect(page).toContain(`<strong>${ALLOWED}</strong> asks you to sign in`);
  });

  it('sets the session cookie at sign-in, Lax, Secure and HttpOnly unless asked otherwise, and goes back to authorize', async () => {
    const { line, answer } = await session();
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/lab/idp/authorize?${authorizeQuery()}`);
    expect(line).toMatch(
      /^idp_session=student-[0-9a-f]{16}; Path=\/lab\/idp\/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure$/,
    );
  });

  it('sets the attributes the sign-in lessons ask for: SameSite=None, Partitioned, or no Secure', async () => {
    expect((await session({ same_site: 'none', partitioned: 'yes' })).line).toMatch(
      /; SameSite=None; Secure; Partitioned$/,
    );
    expect((await session({ same_site: 'strict', secure: 'no' })).line).toMatch(/; HttpOnly; SameSite=Strict$/);
  });

  it('sends the Cross-Origin-Opener-Policy asked for on its pages, or its report-only form', async () => {
    expect((await authorize(authorizeQuery())).headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
    const strict = await authorize(authorizeQuery({ coop: 'same-origin' }));
    expect(strict.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    const reportOnly = await authorize(authorizeQuery({ coop: 'report-only' }));
    expect(reportOnly.headers.get('cross-origin-opener-policy')).toBeNull();
    expect(reportOnly.headers.get('cross-origin-opener-policy-report-only')).toBe('same-origin');
  });
});

describe('the identity provider: its answer, the way the app asked', () => {
  it('query: redirects to the app with a code and the state unchanged (RFC 6749, 4.1.2)', async () => {
    const { cookie } = await session();
    const answer = await authorize(authorizeQuery(), cookie);
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('state')).toBe('abc-123');
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("web_message: posts the code to the opener, to the app's origin only, and says so when there is none", async () => {
    const { cookie } = await session();
    const page = await (await authorize(authorizeQuery({ response_mode: 'web_message' }), cookie)).text();
    expect(page).toMatch(
      /window\.opener\.postMessage\(\{ type: 'authorization_response', response: \{"code":"[A-Za-z0-9_-]{22}","state":"abc-123"\} \}, "http:\/\/allowed\.example"\)/,
    );
    expect(page).toContain('window.opener is null');
  });

  it('form_post: a form that posts the code and state to the app', async () => {
    const { cookie } = await session();
    const page = await (await authorize(authorizeQuery({ response_mode: 'form_post' }), cookie)).text();
    expect(page).toContain(`<form method="post" action="${CALLBACK}">`);
    expect(page).toMatch(/<input type="hidden" name="code" value="[A-Za-z0-9_-]{22}">/);
    expect(page).toContain('<input type="hidden" name="state" value="abc-123">');
  });

  it('sign_in=auto: signs a visitor without a session in at once, and answers', async () => {
    const answer = await authorize(authorizeQuery({ sign_in: 'auto' }));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('set-cookie')).toMatch(/^idp_session=student-[0-9a-f]{16}; /);
    expect(new URL(answer.headers.get('location')!).searchParams.get('state')).toBe('abc-123');
  });

  it('keeps the journal’s visitor and mark on the redirect target, and adds code and state', async () => {
    const { cookie } = await session();
    const target = `${CALLBACK}?visitor=v-1&mark=m-1`;
    const answer = await authorize(authorizeQuery({}, { redirect_uri: target }), cookie);
    const back = new URL(answer.headers.get('location')!);
    expect([...back.searchParams.keys()]).toEqual(['visitor', 'mark', 'code', 'state']);
  });

  it('takes a session cookie only of the shape it gives: another value is no session', async () => {
    const answer = await authorize(authorizeQuery(), 'idp_session=admin');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Sign in as a student');
  });
});

describe('the identity provider: the token address', () => {
  it('gives a token for a code once; the second use is invalid_grant (RFC 6749, 4.1.2 and 5.2)', async () => {
    const once = await code();
    const body = { grant_type: 'authorization_code', code: once, client_id: 'origin-lab', redirect_uri: CALLBACK };
    const first = await token(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 300,
      user: expect.stringMatching(/^student-/),
    });
    expect(first.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(first.headers.get('access-control-allow-credentials')).toBe('true');
    const second = await token(body);
    expect(second.status).toBe(400);
    expect((await second.json()).error).toMatch(/^invalid_grant: the code is unknown, expired or used already/);
    // The refusal is readable by the app too: the CORS headers stay on the error.
    expect(second.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('refuses a code with another redirect_uri than it was issued for', async () => {
    const answer = await token({
      grant_type: 'authorization_code',
      code: await code(),
      redirect_uri: `${ALSO_ALLOWED}/lab/idp-callback`,
    });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error).toMatch(/^invalid_grant: redirect_uri/);
  });

  it('gives a token for the session cookie when it comes (grant_type=session), 401 when it does not', async () => {
    const { cookie } = await session();
    const withCookie = await token({ grant_type: 'session' }, { Cookie: cookie });
    expect(withCookie.status).toBe(200);
    expect((await withCookie.json()).user).toBe(cookie.split('=')[1]);
    const without = await token({ grant_type: 'session' });
    expect(without.status).toBe(401);
    expect((await without.json()).error).toMatch(/^login_required/);
  });

  it("answers a lab origin's preflight with itself and credentials; a foreign origin gets no permission", async () => {
    const preflight = (origin: string, query = '') =>
      fetch(`${api.url}/lab/idp/token${query}`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
      });
    const ours = await preflight(ALLOWED);
    expect(ours.status).toBe(204);
    expect(ours.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(ours.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ours.headers.get('access-control-allow-methods')).toBe('POST');
    const foreign = await preflight(FOREIGN);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // allow_origin=star: the wildcard, which Fetch never lets a credentialed request read.
    const star = await preflight(ALLOWED, '?allow_origin=star');
    expect(star.headers.get('access-control-allow-origin')).toBe('*');
    expect(star.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe("the app's callback: which of the app's cookies came back with the answer", () => {
  it('by a redirect (GET): names the cookies that came, never their values, and tells the app’s pages', async () => {
    const answer = await fetch(`${CALLBACK}?code=abc&state=s-1`.replace(ALLOWED, api.url), {
      headers: { Cookie: 'app_lax=secret-value; app_none=other-secret' },
    });
    expect(answer.status).toBe(200);
    const page = await answer.text();
    expect(page).toContain('<strong id="cookies">app_lax, app_none</strong>');
    expect(page).toContain(`new BroadcastChannel("origin-lab-sign-in")`);
    expect(page).toContain('"method":"GET","state":"s-1","code":true,"cookies":["app_lax","app_none"]');
    expect(page).not.toContain('secret');
  });

  it('by a posted form (POST), with no cookie at all', async () => {
    const answer = await fetch(`${api.url}/lab/idp-callback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'code=abc&state=s-2',
    });
    const page = await answer.text();
    expect(page).toContain('<strong id="cookies">none</strong>');
    expect(page).toContain('"method":"POST","state":"s-2","code":true,"cookies":[]');
  });

  it('refuses a state the lab could not have sent', async () => {
    const answer = await fetch(`${api.url}/lab/idp-callback?state=%3Cscript%3E`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ parameter: 'state' });
  });
});

describe('the identity provider in a frame of the app', () => {
  const frame = (query: string, cookie?: string) =>
    fetch(`${api.url}/lab/idp/frame?${query}`, { headers: cookie ? { Cookie: cookie } : {} });

  it('tells the app (its origin only) which of its cookies came with the frame', async () => {
    const { cookie } = await session();
    const page = await (await frame(`app=${encodeURIComponent(ALLOWED)}`, `${cookie}; idp_chips=1`)).text();
    expect(page).toContain('const heard = {"session":true,"partitioned":true};');
    expect(page).toContain(`parent.postMessage({ type: 'idp-frame', ...heard, storageAccess }, "${ALLOWED}")`);
    const none = await (await frame(`app=${encodeURIComponent(ALLOWED)}`)).text();
    expect(none).toContain('const heard = {"session":false,"partitioned":false};');
  });

  it('sets a Partitioned cookie when asked (CHIPS: SameSite=None; Secure; Partitioned)', async () => {
    const answer = await frame(`app=${encodeURIComponent(ALLOWED)}&set=partitioned`);
    expect(answer.headers.get('set-cookie')).toBe(
      'idp_chips=1; Path=/lab/idp/; Max-Age=300; SameSite=None; Secure; Partitioned',
    );
  });

  it('with access=ask, a button asks for storage access, then calls the token address with credentials; the app alone is told', async () => {
    const page = await (await frame(`app=${encodeURIComponent(ALLOWED)}&access=ask&mark=m1`)).text();
    expect(page).toContain('<button type="button" id="ask-access">');
    expect(page).toContain('document.requestStorageAccess()');
    expect(page).toMatch(/fetch\('\/lab\/idp\/token\?' \+ tags, \{\s+method: 'POST',\s+credentials: 'include'/);
    expect(page).toContain(`parent.postMessage({ type: 'idp-frame-access', access, token }, "${ALLOWED}")`);
    expect(await (await frame(`app=${encodeURIComponent(ALLOWED)}`)).text()).not.toContain('ask-access');
  });

  it.each([
    ['an app that is not the lab’s', `app=${encodeURIComponent(FOREIGN)}`, 'app'],
    ['no app', '', 'app'],
    ['another cookie to set', `app=${encodeURIComponent(ALLOWED)}&set=session`, 'set'],
    ['another way to ask', `app=${encodeURIComponent(ALLOWED)}&access=always`, 'access'],
  ])('refuses %s: 400', async (_, query, parameter) => {
    const answer = await frame(query);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ parameter });
  });
});

describe('the identity provider: bad input is a 400 naming it, and never followed', () => {
  it.each([
    ['an unknown client', { client_id: 'someone-else' }, 'client_id', /^unknown client someone-else/],
    ['a redirect to another site', { redirect_uri: `${FOREIGN}/lab/idp-callback` }, 'redirect_uri', /lab's origins/],
    [
      'a redirect to another path',
      { redirect_uri: `${ALLOWED}/admin` },
      'redirect_uri',
      /path must be \/lab\/idp-callback/,
    ],
    [
      'a redirect with a query of its own',
      { redirect_uri: `${CALLBACK}?next=${FOREIGN}` },
      'redirect_uri',
      /only the journal/,
    ],
    ['a redirect that is no URL', { redirect_uri: '/lab/idp-callback' }, 'redirect_uri', /not an absolute URL/],
    ['an oversized state', { state: 'x'.repeat(201) }, 'state', /longer than 200/],
    ['a state with markup', { state: '<script>' }, 'state', /only letters/],
    ['no state', { state: '' }, 'state', /state is missing/],
    ['an unknown switch', { coop: 'maybe' }, 'coop', /coop must be one of/],
    ['a parameter it does not know', { prompt: 'none' }, 'prompt', /unknown parameter prompt/],
  ])('authorize with %s', async (_, extra, parameter, error) => {
    const answer = await authorize(authorizeQuery(extra));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    const body = await answer.json();
    expect(body).toMatchObject({ parameter });
    expect(body.error).toMatch(error);
  });

  it('authorize with client_id twice', async () => {
    const answer = await authorize(`${authorizeQuery()}&client_id=origin-lab`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ parameter: 'client_id', error: 'client_id is given 2 times' });
  });

  it('a sign-in whose authorize request is bad sets no cookie and sends nobody anywhere', async () => {
    const answer = await signIn(authorizeQuery({ redirect_uri: `${FOREIGN}/lab/idp-callback` }));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.headers.get('location')).toBeNull();
  });

  it('a sign-in or token request that is not a form: 415', async () => {
    const answer = await fetch(`${api.url}/lab/idp/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(415);
  });

  it('a token request with an unknown grant type, or by GET', async () => {
    const answer = await token({ grant_type: 'password', username: 'a', password: 'b' });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ parameter: 'grant_type' });
    const got = await fetch(`${api.url}/lab/idp/token`);
    expect(got.status).toBe(405);
    expect(got.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('a form larger than the body limit: 413', async () => {
    const answer = await signIn('x'.repeat(2 * 1024 * 1024));
    expect(answer.status).toBe(413);
  });
});
