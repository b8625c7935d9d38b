import { describe, expect, it } from 'vitest';
import { readCurl, readHar } from '../src/explain/evidence.js';
import { readEvidence } from '../src/explain/index.js';
import { readConsoleMessage } from '../src/explain/console-messages.js';

// HAR files as the recorders write them (HAR 1.2; what each recorder keeps of a refused read is
// PLATFORM.md's measurement: Chromium a status of -1 with only the provisional headers,
// Firefox the plain answer; DevTools' export keeps the preflight as an OPTIONS entry), and curl's
// -v and -i output as curl prints it.

const PAGE = 'https://app.example.com';
const API = 'https://api.example.com/items';
const header = (name: string, value: string) => ({ name, value });
const entry = (request: object, response: object) => ({
  startedDateTime: '2026-11-26T12:00:00Z',
  time: 5,
  request,
  response,
});
const harOf = (...entries: object[]) => JSON.stringify({ log: { version: '1.2', entries } });

describe('reading a HAR', () => {
  it('pairs a request with the preflight DevTools recorded before it, and explains the preflight’s refusal', () => {
    const text = harOf(
      entry(
        {
          method: 'OPTIONS',
          url: API,
          headers: [
            header('Origin', PAGE),
            header('Access-Control-Request-Method', 'PUT'),
            header('Access-Control-Request-Headers', 'authorization'),
          ],
        },
        {
          status: 204,
          headers: [header('Access-Control-Allow-Origin', PAGE), header('Access-Control-Allow-Methods', 'PUT')],
        },
      ),
      entry(
        { method: 'PUT', url: API, headers: [header('Origin', PAGE), header('Authorization', 'Bearer x')] },
        { status: 0, headers: [], _error: 'net::ERR_FAILED' },
      ),
    );
    const [exchange] = readHar(text);
    expect(exchange).toMatchObject({
      origin: PAGE,
      request: { method: 'PUT' },
      preflight: { answer: { status: 204 } },
    });
    const [explained] = readEvidence(text).explanations;
    expect(explained).toMatchObject({ verdict: 'refused', rule: 'header-not-allowed', reachedServer: false });
    expect(explained!.text).toContain('authorization');
  });

  it('a preflight no request followed: the request never left, and why', () => {
    const text = harOf(
      entry(
        {
          method: 'OPTIONS',
          url: API,
          headers: [header('Origin', PAGE), header('Access-Control-Request-Method', 'DELETE')],
        },
        { status: 401, headers: [] },
      ),
    );
    expect(readEvidence(text).explanations[0]).toMatchObject({
      verdict: 'refused',
      rule: 'preflight-status',
      method: 'DELETE',
    });
  });

  it('Firefox’s record of a refused read (the plain answer): the rule from its headers', () => {
    const text = harOf(
      entry(
        { method: 'GET', url: API, headers: [header('Origin', PAGE)] },
        { status: 200, headers: [header('Content-Type', 'application/json')] },
      ),
    );
    expect(readEvidence(text).explanations[0]).toMatchObject({
      verdict: 'refused',
      rule: 'no-allow-origin',
      header: 'access-control-allow-origin',
      reachedServer: true,
    });
  });

  it('Chromium’s record of a refused read (status -1, no Origin kept): the origin from the Referer, and honest about the rest', () => {
    const text = harOf(
      entry(
        { method: 'GET', url: API, headers: [header('Referer', `${PAGE}/page.html`), header('User-Agent', 'x')] },
        { status: -1, headers: [], _failureText: 'net::ERR_FAILED' },
      ),
    );
    const [explained] = readEvidence(text).explanations;
    expect(explained).toMatchObject({ origin: PAGE, verdict: 'unknown', rule: null });
    expect(explained!.restsOn.join(' ')).toContain('Referer');
    expect(explained!.unknowns.join(' ')).toContain(`curl -v -H "Origin: ${PAGE}" ${API}`);
  });

  it('a failure that is not CORS: a certificate', () => {
    const text = harOf(
      entry(
        { method: 'GET', url: API, headers: [header('Origin', PAGE)] },
        { status: 0, headers: [], _error: 'net::ERR_CERT_AUTHORITY_INVALID' },
      ),
    );
    expect(readEvidence(text).explanations[0]).toMatchObject({ verdict: 'not-cors', rule: 'network' });
  });

  it('a sanitized export (no Cookie): explained without credentials, and says what credentials would change', () => {
    const text = harOf(
      entry(
        { method: 'GET', url: API, headers: [header('Origin', PAGE)] },
        { status: 200, headers: [header('Access-Control-Allow-Origin', '*')] },
      ),
    );
    const [explained] = readEvidence(text).explanations;
    expect(explained).toMatchObject({ verdict: 'readable' });
    expect(explained!.unknowns.join(' ')).toContain('With credentials it would be refused');
    expect(explained!.risks.map((risk) => risk.kind)).toEqual(['wildcard']);
  });

  // Fetch-metadata protection (Go's http.CrossOriginProtection): a 403 to an unsafe request that is not same-origin.
  it('a 403 to a cross-site POST: not CORS, named as Fetch-metadata protection, readable or refused', () => {
    const post = (answerHeaders: { name: string; value: string }[]) =>
      readEvidence(
        harOf(
          entry(
            {
              method: 'POST',
              url: API,
              headers: [
                header('Origin', PAGE),
                header('Sec-Fetch-Site', 'cross-site'),
                header('Sec-Fetch-Mode', 'cors'),
              ],
            },
            { status: 403, headers: answerHeaders },
          ),
        ),
      ).explanations[0]!;
    const readable = post([header('Access-Control-Allow-Origin', PAGE), header('Vary', 'Origin')]);
    expect(readable.verdict).toBe('readable');
    expect(readable.risks.map((risk) => risk.kind)).toEqual(['fetch-metadata']);
    expect(readable.risks[0]!.text).toMatch(/Sec-Fetch-Site: cross-site.*CORS let the page read that answer/);
    const refused = post([header('Content-Type', 'text/plain')]);
    expect(refused).toMatchObject({ verdict: 'refused', rule: 'no-allow-origin' });
    expect(refused.risks.map((risk) => risk.kind)).toEqual(['fetch-metadata']);
    expect(refused.risks[0]!.text).toMatch(/fixing CORS alone will not help/);
  });

  it('a 403 to a cross-site GET (a safe method) is no Fetch-metadata refusal', () => {
    const get = readEvidence(
      harOf(
        entry(
          { method: 'GET', url: API, headers: [header('Origin', PAGE), header('Sec-Fetch-Site', 'cross-site')] },
          { status: 403, headers: [header('Access-Control-Allow-Origin', PAGE), header('Vary', 'Origin')] },
        ),
      ),
    ).explanations[0]!;
    expect(get.risks.map((risk) => risk.kind)).toEqual(['readable-error-status']);
  });

  it('leaves out same-origin requests, and orders what failed first', () => {
    const text = harOf(
      entry({ method: 'GET', url: `${PAGE}/own`, headers: [header('Origin', PAGE)] }, { status: 200, headers: [] }),
      entry(
        { method: 'GET', url: `${API}/1`, headers: [header('Origin', PAGE)] },
        { status: 200, headers: [header('Access-Control-Allow-Origin', PAGE), header('Vary', 'Origin')] },
      ),
      entry(
        { method: 'GET', url: `${API}/2`, headers: [header('Origin', PAGE)] },
        { status: 200, headers: [header('Content-Type', 'application/json')] },
      ),
    );
    expect(readEvidence(text).explanations.map((e) => [e.url, e.verdict])).toEqual([
      [`${API}/2`, 'refused'],
      [`${API}/1`, 'readable'],
    ]);
  });

  it('an answer recorded without a single header is no evidence either way (an opaque answer, as Chromium records it)', () => {
    const text = harOf(
      entry(
        { method: 'GET', url: `${API}/img`, headers: [header('Referer', `${PAGE}/`)] },
        { status: 200, headers: [] },
      ),
    );
    const [explanation] = readEvidence(text).explanations;
    expect(explanation).toMatchObject({ verdict: 'unknown', rule: null, reachedServer: true });
    expect(explanation!.unknowns.join(' ')).toContain('Sec-Fetch-Mode');
  });

  it('a request in no-cors mode is not CORS, whatever its answer lacks', () => {
    const text = harOf(
      entry(
        {
          method: 'GET',
          url: `${API}/img`,
          headers: [header('Referer', `${PAGE}/`), header('Sec-Fetch-Mode', 'no-cors')],
        },
        { status: 200, headers: [header('Content-Type', 'image/png')] },
      ),
    );
    expect(readEvidence(text).explanations[0]).toMatchObject({ verdict: 'not-cors', rule: 'no-cors-mode' });
  });

  it('a header a recorder lists twice with one value is one header; a preflight listed after its request is still its own', () => {
    const origin = header('Origin', PAGE);
    const text = harOf(
      entry(
        { method: 'PUT', url: `${API}/1`, headers: [origin, origin] },
        { status: 200, headers: [header('Access-Control-Allow-Origin', PAGE), header('Vary', 'Origin')] },
      ),
      entry(
        {
          method: 'OPTIONS',
          url: `${API}/1`,
          headers: [origin, header('Access-Control-Request-Method', 'PUT'), origin],
        },
        {
          status: 204,
          headers: [header('Access-Control-Allow-Origin', PAGE), header('Access-Control-Allow-Methods', 'GET')],
        },
      ),
    );
    expect(readEvidence(text).explanations).toEqual([
      expect.objectContaining({ origin: PAGE, verdict: 'refused', rule: 'method-not-allowed' }),
    ]);
  });

  it('an answer that repeats Access-Control-Allow-Origin holds a list, which the CORS check refuses', () => {
    const allow = header('Access-Control-Allow-Origin', PAGE);
    const text = harOf(
      entry(
        { method: 'GET', url: `${API}/1`, headers: [header('Origin', PAGE)] },
        { status: 200, headers: [allow, allow] },
      ),
    );
    expect(readEvidence(text).explanations[0]).toMatchObject({ verdict: 'refused', rule: 'allow-origin-list' });
  });

  it('pairs each request with its own preflight, whichever the recorder lists first, and none with a cached one', () => {
    const origin = header('Origin', PAGE);
    const ask = header('Access-Control-Request-Method', 'PUT');
    const allowed = [header('Access-Control-Allow-Origin', PAGE), header('Access-Control-Allow-Methods', 'PUT')];
    const preflight = (status: number) =>
      entry({ method: 'OPTIONS', url: API, headers: [origin, ask] }, { status, headers: allowed });
    const put = entry({ method: 'PUT', url: API, headers: [origin] }, { status: 200, headers: allowed.slice(0, 1) });
    const verdicts = (...entries: object[]) =>
      readEvidence(harOf(...entries))
        .explanations.sort((a, b) => a.index - b.index)
        .map((e) => [e.index, e.verdict, e.rule]);
    // Preflight first (Firefox's DevTools): the second PUT's preflight was cached; the third's failed.
    expect(verdicts(preflight(204), put, put, preflight(500), put)).toEqual([
      [1, 'readable', null],
      [2, 'readable', null],
      [4, 'refused', 'preflight-status'],
    ]);
    // Request first (chrome-har): the same, each preflight listed after its request.
    expect(verdicts(put, preflight(204), put, put, preflight(500))).toEqual([
      [0, 'readable', null],
      [2, 'readable', null],
      [3, 'refused', 'preflight-status'],
    ]);
  });

  it('credentials the recorder does not show, but its failure does, are inferred and said so', () => {
    // DevTools keeps the answer of a read it refused, and the error.
    const text = harOf(
      entry(
        { method: 'GET', url: `${API}/me`, headers: [header('Origin', PAGE)] },
        { status: 200, headers: [header('Access-Control-Allow-Origin', '*')], _error: 'net::ERR_FAILED' },
      ),
    );
    const [explanation] = readEvidence(text).explanations;
    expect(explanation).toMatchObject({ verdict: 'refused', rule: 'wildcard-with-credentials' });
    expect(explanation!.restsOn.join(' ')).toContain('credentials, inferred');
  });

  it('a request whose connection failed after its preflight passed is a network failure, not credentials', () => {
    const origin = header('Origin', PAGE);
    const text = harOf(
      entry(
        { method: 'OPTIONS', url: API, headers: [origin, header('Access-Control-Request-Method', 'PUT')] },
        {
          status: 204,
          headers: [header('Access-Control-Allow-Origin', '*'), header('Access-Control-Allow-Methods', 'PUT')],
        },
      ),
      entry(
        { method: 'PUT', url: API, headers: [origin] },
        { status: 0, headers: [], _error: 'net::ERR_CONNECTION_RESET' },
      ),
    );
    expect(readEvidence(text).explanations[0]).toMatchObject({ verdict: 'not-cors', rule: 'network' });
  });

  it('without credentials in the evidence, a read that only credentials would refuse names that rule', () => {
    const text = harOf(
      entry(
        { method: 'GET', url: `${API}/me`, headers: [header('Origin', PAGE)] },
        { status: 200, headers: [header('Access-Control-Allow-Origin', '*')] },
      ),
    );
    expect(readEvidence(text).explanations[0]).toMatchObject({
      verdict: 'readable',
      withCredentials: 'wildcard-with-credentials',
    });
  });
});

describe('a HAR of redirects and revalidations', () => {
  const get = (headers: object[], url = API) => ({ method: 'GET', url, headers: [header('Origin', PAGE), ...headers] });
  const allowed = [header('Access-Control-Allow-Origin', PAGE), header('Vary', 'Origin')];

  it('a redirect that passes the CORS check is a hop the browser follows, and the answer after it is judged on its own', () => {
    const text = harOf(
      entry(get([]), { status: 307, headers: [...allowed, header('Location', `${API}?next=1`)] }),
      entry(
        { method: 'GET', url: `${API}?next=1`, headers: [header('Origin', 'null')] },
        { status: 200, headers: [header('Access-Control-Allow-Origin', 'null')] },
      ),
    );
    const explained = readEvidence(text).explanations;
    expect(explained.map(({ verdict, rule }) => [verdict, rule])).toEqual([
      ['readable', null],
      ['readable', null],
    ]);
    expect(explained[0]!.text).toMatch(/A redirect \(307\) to .*next=… that passes the CORS check/);
    expect(explained[0]!.unknowns.join(' ')).toMatch(/redirect mode/);
  });

  it('a redirect without Allow-Origin is refused like any answer', () => {
    const text = harOf(entry(get([]), { status: 307, headers: [header('Location', `${API}?next=1`)] }));
    expect(readEvidence(text).explanations[0]).toMatchObject({ verdict: 'refused', rule: 'no-allow-origin' });
  });

  it('a redirect the engine stopped at: a user name in its Location is named; otherwise the mode is what is missing', () => {
    const stoppedAt = (location: string) =>
      readEvidence(
        harOf(
          entry(get([]), {
            status: 307,
            headers: [...allowed, header('Location', location)],
            _error: 'net::ERR_FAILED',
          }),
        ),
      ).explanations[0];
    expect(stoppedAt('https://user:secret@api.example.com/items')).toMatchObject({
      verdict: 'not-cors',
      rule: 'redirect-credentials',
    });
    // Not credentials: nothing about the answer asks for them, though the read failed.
    const other = stoppedAt(`${API}?next=1`);
    expect(other).toMatchObject({ verdict: 'unknown', rule: null });
    expect(other!.text).toMatch(/redirect mode/);
  });

  it('a relative Location is told whole, its code and token hidden as every URL’s are', () => {
    const [followed] = readEvidence(
      harOf(
        entry(get([]), {
          status: 302,
          headers: [...allowed, header('Location', '/callback?code=CODE-SECRET-1#id_token=TOKEN-SECRET-2')],
        }),
      ),
    ).explanations;
    expect(followed!.text).toContain('https://api.example.com/callback?code=…#…');
    expect(JSON.stringify(followed)).not.toMatch(/SECRET/);
  });

  it('a 304 is read as the kept answer, its headers updated with the 304’s (RFC 9111)', () => {
    const etag = header('ETag', '"v1"');
    const kept = entry(get([]), { status: 200, headers: [...allowed, etag] });
    const revalidated = (headers: object[]) =>
      readEvidence(
        harOf(kept, entry(get([header('If-None-Match', '"v1"')]), { status: 304, headers: [etag, ...headers] })),
      ).explanations.map(({ verdict, rule }) => [verdict, rule]);
    expect(revalidated([])).toEqual([
      ['readable', null],
      ['readable', null],
    ]);
    expect(revalidated([header('Access-Control-Allow-Origin', 'https://elsewhere.example')])).toEqual([
      ['refused', 'origin-mismatch'],
      ['readable', null],
    ]);
  });

  it('an answer to If-None-Match with the ETag it named is a revalidation, whatever status the recorder kept (Chromium: 200)', () => {
    const etag = header('ETag', '"v1"');
    const text = harOf(
      entry(get([]), { status: 200, headers: [...allowed, etag] }),
      entry(get([header('If-None-Match', '"v1"')]), { status: 200, headers: [etag] }),
    );
    expect(readEvidence(text).explanations.map(({ verdict }) => verdict)).toEqual(['readable', 'readable']);
  });

  it('a 304 without the kept answer in the evidence: cannot tell, and says what is missing', () => {
    const text = harOf(
      entry(get([header('If-None-Match', '"v1"')]), { status: 304, headers: [header('ETag', '"v1"')] }),
    );
    const [explained] = readEvidence(text).explanations;
    expect(explained).toMatchObject({ verdict: 'unknown', rule: null });
    expect(explained!.unknowns.join(' ')).toMatch(/kept answer/);
  });
});

describe('reading curl’s output', () => {
  const verbose = [
    '*   Trying 203.0.113.5:443...',
    '* Connected to api.example.com (203.0.113.5) port 443 (#0)',
    '* SSL connection using TLSv1.3',
    '> GET /items HTTP/2',
    '> Host: api.example.com',
    `> Origin: ${PAGE}`,
    '> ',
    '< HTTP/2 200',
    `< access-control-allow-origin: ${PAGE}, https://other.example`,
    '< ',
    '{"items":[]}',
  ].join('\n');

  it('curl -vL: each request at the host and scheme of its own connection, not of the last one', () => {
    const redirected = [
      '*   Trying 203.0.113.5:80...',
      '* Connected to api.example.com (203.0.113.5) port 80 (#0)',
      '> GET /me HTTP/1.1',
      '> Host: api.example.com',
      `> Origin: ${PAGE}`,
      '> ',
      '< HTTP/1.1 302 Found',
      '< Location: https://login.example.net/auth',
      '< ',
      "* Issue another request to this URL: 'https://login.example.net/auth'",
      '*   Trying 198.51.100.7:443...',
      '* Connected to login.example.net (198.51.100.7) port 443 (#1)',
      '* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384',
      '> GET /auth HTTP/1.1',
      '> Host: login.example.net',
      `> Origin: ${PAGE}`,
      '> ',
      '< HTTP/1.1 200 OK',
      '< ',
    ].join('\n');
    expect(readCurl(redirected).map((exchange) => exchange.request.url)).toEqual([
      'http://api.example.com/me',
      'https://login.example.net/auth',
    ]);
  });

  it('curl -v without its TLS lines: port 443 says the request went over https', () => {
    const text = verbose
      .split('\n')
      .filter((line) => !line.startsWith('* SSL'))
      .join('\n');
    expect(readCurl(text).map((exchange) => exchange.request.url)).toEqual(['https://api.example.com/items']);
  });

  it('curl -v: the request, the origin and the answer, one exchange', () => {
    expect(readCurl(verbose)).toEqual([
      expect.objectContaining({
        origin: PAGE,
        request: expect.objectContaining({ method: 'GET', url: 'https://api.example.com/items' }),
      }),
    ]);
    expect(readEvidence(verbose).explanations[0]).toMatchObject({
      verdict: 'refused',
      rule: 'allow-origin-list',
      value: `${PAGE}, https://other.example`,
    });
  });

  it('curl -i: the answer alone, its body not taken for headers; the origin is asked for', () => {
    const text = 'HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\n\r\n{"a":"b:c"}';
    const [exchange] = readCurl(text);
    expect(Object.keys(exchange!.answer!.headers)).toEqual(['access-control-allow-origin']);
    expect(readEvidence(text).explanations[0]).toMatchObject({ verdict: 'unknown' });
    expect(readEvidence(text, { origin: PAGE }).explanations[0]).toMatchObject({ verdict: 'readable' });
  });
});

describe('a console message with a 403', () => {
  // Firefox names the status; a 403 without CORS headers is what a protection in front of the CORS code answers.
  it('names Fetch-metadata protection as a possible refusal that is not CORS', () => {
    const [explained] = readEvidence(
      'Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at https://api.example.com/items. (Reason: CORS header ‘Access-Control-Allow-Origin’ missing). Status code: 403.',
    ).explanations;
    expect(explained).toMatchObject({ verdict: 'refused', rule: 'no-allow-origin' });
    expect(explained!.risks.map((risk) => risk.kind)).toEqual(['fetch-metadata']);
  });

  it('says nothing of it for another status', () => {
    const [explained] = readEvidence(
      'Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at https://api.example.com/items. (Reason: CORS header ‘Access-Control-Allow-Origin’ missing). Status code: 200.',
    ).explanations;
    expect(explained!.risks).toEqual([]);
  });
});

describe('a console message of cross-origin isolation', () => {
  // Each engine's words for an embed refused by CORP (or its want under COEP require-corp):
  // Chromium's net error (as Chromium 156 printed it for the isolation page), Firefox's and
  // WebKit's strings as their sources write them. The server answered; CORS had no say.
  const MESSAGES = [
    ['chromium', 'Failed to load resource: net::ERR_BLOCKED_BY_RESPONSE.NotSameOriginAfterDefaultedToSameOriginByCoep'],
    [
      'firefox',
      'The resource at “https://cdn.example.com/logo.png” was blocked due to its Cross-Origin-Resource-Policy header (or lack thereof). See https://developer.mozilla.org/docs/Web/HTTP/Cross-Origin_Resource_Policy_(CORP)#',
    ],
    [
      'webkit',
      "[Error] Cancelled load to https://cdn.example.com/logo.png because it violates the resource's Cross-Origin-Resource-Policy response header.",
    ],
  ] as const;

  for (const [engine, message] of MESSAGES)
    it(`is not CORS (${engine}): the answer arrived, and no Access-Control header would change it`, () => {
      const { explanations, unknownLines } = readEvidence(message);
      expect(unknownLines).toEqual([]);
      expect(explanations).toHaveLength(1);
      expect(explanations[0]).toMatchObject({
        engine,
        verdict: 'not-cors',
        rule: 'resource-policy',
        reachedServer: true,
      });
      expect(explanations[0]!.text).toMatch(/^Not CORS: cross-origin isolation\./);
    });

  it('is not claimed for a blocked response of another reason (a frame refused by X-Frame-Options)', () => {
    const { explanations } = readEvidence(
      [
        'Failed to load resource: net::ERR_BLOCKED_BY_RESPONSE',
        "Access to fetch at 'https://api.example.com/items' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
      ].join('\n'),
    );
    expect(explanations.map((explained) => explained.rule)).toEqual(['no-allow-origin']);
  });

  it('is read apart from the CORS message after it', () => {
    const { explanations } = readEvidence(
      [
        MESSAGES[0][1],
        "Access to fetch at 'https://api.example.com/items' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
      ].join('\n'),
    );
    expect(explanations.map((explained) => explained.rule).sort()).toEqual(['no-allow-origin', 'resource-policy']);
  });
});

describe('a console message of an opener policy', () => {
  // Chromium 156's line, as it printed it in the popup and in its opener on the sign-in page
  // (the provider's policy report-only); Firefox 153 and WebKitGTK 2.50 print nothing there.
  const LINE = 'Cross-Origin-Opener-Policy policy would block the window.closed call.';

  it('is not CORS: names the policy, the property, and the fix (same-origin-allow-popups, or a redirect)', () => {
    const { explanations, unknownLines } = readEvidence(LINE);
    expect(unknownLines).toEqual([]);
    expect(explanations).toHaveLength(1);
    expect(explanations[0]).toMatchObject({
      engine: 'chromium',
      verdict: 'not-cors',
      rule: 'opener-policy',
      reachedServer: null,
    });
    expect(explanations[0]!.text).toMatch(/^Not CORS: Cross-Origin-Opener-Policy\./);
    expect(explanations[0]!.text).toContain('same-origin-allow-popups');
    expect(explanations[0]!.text).toContain('sign in by redirect');
  });

  it('reads the property it names: postMessage too', () => {
    expect(
      readConsoleMessage('Cross-Origin-Opener-Policy policy would block the window.postMessage call.'),
    ).toMatchObject({ engine: 'chromium', rule: 'opener-policy', value: 'postMessage' });
  });

  it('is read apart from the CORS message after it', () => {
    const { explanations } = readEvidence(
      [
        LINE,
        "Access to fetch at 'https://idp.example/token' from origin 'https://app.example' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
      ].join('\n'),
    );
    expect(explanations.map((explained) => explained.rule).sort()).toEqual(['no-allow-origin', 'opener-policy']);
  });
});

describe('a console message of a partitioned cookie jar (Firefox)', () => {
  // Firefox's words (its strings, and MDN's page on state partitioning): untested in a real
  // engine here, since Firefox gives a driver no such line for a frame.
  const LINE =
    'Partitioned cookie or storage access was provided to “https://idp.example/frame?app=x” because it is loaded in the third-party context and dynamic state partitioning is enabled.';

  it('is not CORS: names the partition, what the server misses, and the fixes (storage access, a top-level sign-in)', () => {
    const { explanations, unknownLines } = readEvidence(LINE);
    expect(unknownLines).toEqual([]);
    expect(explanations).toHaveLength(1);
    expect(explanations[0]).toMatchObject({
      engine: 'firefox',
      verdict: 'not-cors',
      rule: 'cookie-partitioned',
      url: 'https://idp.example/frame?app=…',
      reachedServer: null,
    });
    expect(explanations[0]!.text).toMatch(/^Not CORS: a partitioned cookie jar/);
    expect(explanations[0]!.text).toContain('document.requestStorageAccess()');
    expect(explanations[0]!.text).toContain('sign in top-level');
  });

  it('reads MDN’s wording and straight quotes as well', () => {
    expect(
      readConsoleMessage(
        'Partitioned cookie or storage access was provided to "https://b.example/" because it is loaded in the third-party context and storage partitioning is enabled.',
      ),
    ).toMatchObject({ engine: 'firefox', rule: 'cookie-partitioned', url: 'https://b.example/' });
  });
});

describe('telling the kinds of evidence apart', () => {
  it('Safari’s console, whose lines start with [Error], is read as console text, not as JSON', () => {
    const pasted = '[Error] Fetch API cannot load https://api.example.com/me due to access control checks.';
    expect(readEvidence(pasted)).toMatchObject({ kind: 'console', explanations: [{ engine: 'webkit' }] });
  });

  it('JSON that is not a HAR says so', () => {
    for (const json of ['[{"a": 1}]', '{"entries": []}', '[]'])
      expect(() => readEvidence(json), json).toThrow('this JSON is not a HAR');
  });
});
