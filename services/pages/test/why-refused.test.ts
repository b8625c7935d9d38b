import { describe, expect, it } from 'vitest';
import type { ServerJournalEntry } from '@origin-lab/contract';
import { entry, PAGE } from './journal-entry.fixture.js';
import {
  explain,
  groupByExplanation,
  type RequestFacts,
  type Rule,
  type ServerFacts,
} from '../web/ts/server-view/why-refused.js';

const preflight = (overrides: Partial<ServerJournalEntry>) =>
  entry({
    method: 'OPTIONS',
    preflight: true,
    status: 204,
    accessControlRequest: { method: 'POST', headers: 'content-type' },
    ...overrides,
  });

const API_PREFLIGHT = {
  'access-control-allow-origin': PAGE,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, X-Requested-With',
  'access-control-max-age': '86400',
};

const request = (overrides: Partial<RequestFacts> = {}): RequestFacts => ({
  pageOrigin: PAGE,
  method: 'GET',
  headers: [],
  credentials: false,
  read: false,
  ...overrides,
});

const cases: [string, RequestFacts, ServerFacts, Rule, RegExp, boolean][] = [
  ['a read that worked', request({ read: true }), { actual: entry({}) }, 'read', /answered 200/, true],
  ['nothing reached the server', request(), {}, 'not-reached', /never reached the server/, false],
  [
    'fetch rejected with TypeError: the network, or LNA',
    request({ failure: 'TypeError' }),
    {},
    'not-reached',
    /never reached the server/,
    false,
  ],
  // WebKit rejects a ReadableStream body with NotSupportedError before sending anything.
  [
    'fetch rejected with another error: never sent',
    request({ failure: 'NotSupportedError' }),
    {},
    'not-sent',
    /rejected with NotSupportedError before anything reached the server/,
    false,
  ],
  // Local Network Access also stops a request before it leaves: named there, as not CORS.
  [
    'nothing reached: Local Network Access is one cause',
    request(),
    {},
    'not-reached',
    /Local Network Access \(not CORS\)/,
    false,
  ],
  // A loopback or private target: Local Network Access named first, as not CORS.
  [
    'nothing reached a loopback address from a public page: Local Network Access',
    request({ pageOrigin: 'https://app.example', failure: 'TypeError', url: 'http://[::1]:8080/lab/cors' }),
    {},
    'local-network',
    /^Not CORS: Local Network Access\. The request was for a loopback address/,
    false,
  ],
  [
    'nothing reached a private address from a public page: Local Network Access',
    request({ pageOrigin: 'https://app.example', failure: 'TypeError', url: 'http://192.168.1.20/api/echo' }),
    {},
    'local-network',
    /^Not CORS: Local Network Access\. The request was for a private address/,
    false,
  ],
  [
    'nothing reached loopback from a page on loopback: nothing was asked, so not named',
    request({ pageOrigin: 'http://127.0.0.1:8080', failure: 'TypeError', url: 'http://[::1]:8080/lab/cors' }),
    {},
    'not-reached',
    /or Local Network Access \(not CORS\)/,
    false,
  ],
  [
    'nothing reached a public address: not Local Network Access',
    request({ failure: 'TypeError', url: 'https://api.example.com/x' }),
    {},
    'not-reached',
    /never reached the server/,
    false,
  ],
  [
    'cors=off: handled, no CORS headers',
    request(),
    { actual: entry({ query: 'cors=off', cors: null }) },
    'no-cors-headers',
    /cors=off/,
    true,
  ],
  [
    'an origin off the allowlist: handled, no Allow-Origin',
    request({ pageOrigin: 'http://evil.example' }),
    { actual: entry({ origin: 'http://evil.example', cors: null }) },
    'origin-not-allowed',
    /not on the server's allowlist/,
    true,
  ],
  [
    'a preflight refused with 403 for an origin off the allowlist',
    request({ method: 'POST', headers: ['Content-Type'] }),
    { preflight: preflight({ status: 403, cors: null }) },
    'origin-not-allowed',
    /403/,
    false,
  ],
  [
    'a preflight answered 401',
    request({ method: 'PUT' }),
    { preflight: preflight({ status: 401, cors: { 'access-control-allow-origin': PAGE } }) },
    'preflight-status',
    /401; only 200 or 204/,
    false,
  ],
  [
    'a header the preflight did not list, named',
    request({ method: 'POST', headers: ['Content-Type', 'X-Custom-Thing'] }),
    { preflight: preflight({ cors: API_PREFLIGHT }) },
    'header-not-allowed',
    /X-Custom-Thing/,
    false,
  ],
  [
    'Authorization is never covered by *',
    request({ headers: ['Authorization'] }),
    { preflight: preflight({ cors: { 'access-control-allow-origin': PAGE, 'access-control-allow-headers': '*' } }) },
    'authorization-not-covered',
    /Authorization/,
    false,
  ],
  [
    'a method the preflight did not list',
    request({ method: 'DELETE' }),
    { preflight: preflight({ cors: API_PREFLIGHT }) },
    'method-not-allowed',
    /DELETE/,
    false,
  ],
  [
    'credentials without Allow-Credentials',
    request({ credentials: true }),
    { actual: entry({}) },
    'credentials-not-allowed',
    /Access-Control-Allow-Credentials is missing; .* exactly "true"/,
    true,
  ],
  [
    '* with credentials',
    request({ credentials: true }),
    { actual: entry({ cors: { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' } }) },
    'wildcard-with-credentials',
    /Access-Control-Allow-Origin is \* /,
    true,
  ],
  [
    'another origin named',
    request(),
    { actual: entry({ cors: { 'access-control-allow-origin': 'http://localhost:8080' } }) },
    'origin-mismatch',
    /Access-Control-Allow-Origin is http:\/\/localhost:8080, not/,
    true,
  ],
];

describe('why a request failed, from what the server saw', () => {
  it.each(cases)('%s', (_name, facts, server, rule, text, handled) => {
    const explanation = explain(facts, server);
    expect(explanation.rule).toBe(rule);
    expect(explanation.text).toMatch(text);
    expect(explanation.handled).toBe(handled);
  });

  it('says what the handler answered when it ran', () => {
    expect(explain(request(), { actual: entry({ status: 500, query: 'cors=off', cors: null }) })).toMatchObject({
      handled: true,
      status: 500,
    });
  });

  it('lets a listed header through, whatever its case, and a simple method without a list', () => {
    const explanation = explain(request({ method: 'POST', headers: ['content-type'] }), {
      preflight: preflight({ cors: API_PREFLIGHT }),
    });
    expect(explanation.rule).toBe('preflight-status');
    expect(explanation.text).toMatch(/never arrived/);
  });
});

describe('failed requests grouped by their explanation', () => {
  // What the reads page's shape experiments leave: cors=off answers, some handled, some stopped at the preflight.
  const handledOff = { actual: entry({ method: 'POST', status: 202, query: 'cors=off', cors: null }) };
  const preflightOff = { preflight: preflight({ query: 'cors=off', cors: null }) };
  const post = request({ method: 'POST' });
  const failures: [string, ServerFacts][] = [
    ['a', handledOff],
    ['b', preflightOff],
    ['c', handledOff],
    ['d', preflightOff],
    ['e', handledOff],
  ];

  it('gives each reason once, with every request it covers, in the order the reasons first came', () => {
    const groups = groupByExplanation(failures, ([, server]) => explain(post, server));
    expect(groups.map((group) => group.items.map(([name]) => name))).toEqual([
      ['a', 'c', 'e'],
      ['b', 'd'],
    ]);
    expect(groups.map((group) => group.explanation.handled)).toEqual([true, false]);
  });

  it('keeps apart the same rule where the handler answered differently', () => {
    const answered = (status: number): ServerFacts => ({
      actual: entry({ status, query: 'cors=off', cors: null }),
    });
    const groups = groupByExplanation([answered(200), answered(500), answered(200)], (server) =>
      explain(request(), server),
    );
    expect(groups.map((group) => [group.explanation.status, group.items.length])).toEqual([
      [200, 2],
      [500, 1],
    ]);
  });
});
