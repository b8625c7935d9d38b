import type { EchoReflection } from './echo.js';

/**
 * The CORS lab (`/lab/cors`): a server policy chosen by the request's own URL, so a page can try
 * any case. Each policy parameter applies to the preflight and to the actual request, unless
 * written with a `preflight.` or `actual.` prefix, which sets it for that one only.
 *
 * The URL is written here once: its parameter names and their choices, its defaults, and the
 * codec: `labCorsQuery` writes a scenario as a URL (the playground page); `readLabCorsQuery`
 * (lab-cors-read.ts, `@origin-lab/contract/lab-cors-read`) reads and checks one (the api). It is
 * a module of its own so the browser never loads the reader (every page stays under 100 KB).
 */

/** Where the api serves the lab. */
export const LAB_CORS_PATH = '/lab/cors';

/**
 * What Access-Control-Allow-Origin says: nothing, `*`, the request's origin, another origin, two
 * values, or the word null (which an opaque origin, such as a sandboxed frame's, sends as its Origin).
 */
export const LAB_ALLOW_ORIGINS = ['none', '*', 'origin', 'other', 'two', 'null'] as const;
export type LabAllowOrigin = (typeof LAB_ALLOW_ORIGINS)[number];

/** The statuses a preflight can be answered with. */
export const LAB_PREFLIGHT_STATUSES = [200, 204, 301, 401, 404, 500] as const;
export type LabPreflightStatus = (typeof LAB_PREFLIGHT_STATUSES)[number];

/** The SameSite attribute of the demo cookie, or no cookie (off). */
export const LAB_COOKIES = ['off', 'none', 'lax', 'strict'] as const;
export type LabCookie = (typeof LAB_COOKIES)[number];

/** What the actual request must carry: nothing, or `Authorization: Bearer <token>` (401 without it). */
export const LAB_AUTHS = ['off', 'bearer'] as const;
export type LabAuth = (typeof LAB_AUTHS)[number];

/**
 * Revalidation: off, or the answer carries an ETag and Cache-Control: no-cache, and a request
 * with a matching If-None-Match is answered 304 with the actual policy (cors), with no CORS
 * headers (bare), or with Access-Control-Allow-Origin naming another origin (other).
 */
export const LAB_REVALIDATES = ['off', 'cors', 'bare', 'other'] as const;
export type LabRevalidate = (typeof LAB_REVALIDATES)[number];

/**
 * A protection the server runs before its handler, which is not CORS: off, or Fetch-metadata
 * protection (fetch-metadata.ts: fetchMetadataRefusal), which refuses a cross-origin request that changes something.
 */
export const LAB_PROTECTS = ['off', 'fetch-metadata'] as const;
export type LabProtect = (typeof LAB_PROTECTS)[number];

/** The lab's one ETag: the answer never changes in what a cache compares. */
export const LAB_ETAG = '"origin-lab-1"';

/** The parameters of a lab URL that set a policy (with or without a prefix). */
export const LAB_POLICY_PARAMETERS = [
  'allow-origin',
  'allow-credentials',
  'allow-methods',
  'allow-headers',
  'expose-headers',
  'max-age',
  'vary',
] as const;
export type LabPolicyParameter = (typeof LAB_POLICY_PARAMETERS)[number];

/** The prefixes that set a policy parameter for one of the two requests only. */
export const LAB_REQUEST_PREFIXES = ['preflight', 'actual'] as const;
export type LabRequest = (typeof LAB_REQUEST_PREFIXES)[number];

/** Parameters that are the scenario's as a whole, not one request's. */
export const LAB_SCENARIO_PARAMETERS = [
  'preflight-status',
  'extra-header',
  'cookie',
  'cookie-secure',
  'cookie-partitioned',
  'revalidate',
  'auth',
  'protect',
  'redirect-to',
  'redirect-cors',
  'redirect-userinfo',
] as const;

/** The user name and password a redirect with credentials in its URL writes (never checked by anything). */
export const LAB_REDIRECT_USERINFO = 'lab:lab';

/** Parameters the lab lets through untouched: the journal's token and an experiment's mark. */
export const LAB_PASSING_PARAMETERS = ['visitor', 'mark'] as const;

/** The largest max-age the lab will say, in seconds (a day). */
export const LAB_MAX_AGE_LIMIT = 86_400;

/** The one cookie the lab sets, on its own path only. */
export const LAB_DEMO_COOKIE = 'origin_lab_demo';

/** The one extra header an answer can carry, for trying Access-Control-Expose-Headers. */
export const LAB_EXTRA_HEADER = 'X-Lab-Extra';

/** A header list: `*`, names, or null for no header at all. */
export type LabHeaderList = '*' | string[] | null;

/** The answer's side of CORS for one of the two requests. */
export interface LabCorsPolicy {
  allowOrigin: LabAllowOrigin;
  allowCredentials: boolean;
  allowMethods: LabHeaderList;
  allowHeaders: LabHeaderList;
  exposeHeaders: LabHeaderList;
  /** Seconds, or null for no Access-Control-Max-Age. */
  maxAge: number | null;
  /** Whether the answer says Vary: Origin. */
  varyOrigin: boolean;
}

/** Everything a lab URL can ask for, after validation. */
export interface LabCorsScenario {
  preflight: LabCorsPolicy;
  actual: LabCorsPolicy;
  preflightStatus: LabPreflightStatus;
  /** The value of X-Lab-Extra on the actual answer (one header to try exposing), or null. */
  extraHeader: string | null;
  cookie: LabCookie;
  cookieSecure: boolean;
  /** Whether the demo cookie says Partitioned (CHIPS: kept per top-level site; browsers want Secure with it). */
  cookiePartitioned: boolean;
  /** Whether the answer can be revalidated (ETag), and what its 304 says of CORS. */
  revalidate: LabRevalidate;
  /**
   * bearer: the actual request is answered 401 (with WWW-Authenticate and the actual policy)
   * unless it carries a Bearer token; the preflight, which never carries one, is answered as ever.
   */
  auth: LabAuth;
  /** A protection that is not CORS, run before the handler: a refused request is answered 403 with the actual policy. */
  protect: LabProtect;
  /**
   * An origin to redirect the actual request to (307, the lab on that origin, the same scenario
   * without the redirect), or null for none. The api follows it only when it is one of its
   * configured origins: a redirect never goes anywhere a URL names freely.
   */
  redirectTo: string | null;
  /**
   * Whether the redirect answer carries CORS headers: the actual policy's, naming the request's
   * origin (labRedirectPolicy), so that the redirect and the answer after it are each checked on
   * their own.
   */
  redirectCors: boolean;
  /** Whether the redirect's Location has a user name and password in it. */
  redirectUserinfo: boolean;
}

/** What the lab answers to an actual request: the reflection, as /api/echo, and the policy it applied. */
export interface LabCorsReflection extends EchoReflection {
  scenario: LabCorsScenario;
}

/** The policy of a URL that names none: the request's origin reflected, Vary: Origin, nothing else. */
export const LAB_DEFAULT_POLICY: Readonly<LabCorsPolicy> = Object.freeze({
  allowOrigin: 'origin',
  allowCredentials: false,
  allowMethods: null,
  allowHeaders: null,
  exposeHeaders: null,
  maxAge: null,
  varyOrigin: true,
});

/** The origin "another origin" and the second of "two values" name: never a page's own. */
export const LAB_ELSEWHERE_ORIGIN = 'https://elsewhere.example';

const headerList = (value: LabHeaderList) => (value === '*' ? '*' : value?.join(', '));

/**
 * The Access-Control-* headers (and Vary) the lab sends for one policy, names in lower case, to a
 * request from origin (null: none was sent). The api writes them; the pages' prediction reads
 * them with the CORS rules, so both sides agree on what each choice means.
 */
export function labPolicyHeaders(policy: LabCorsPolicy, origin: string | null): Record<string, string> {
  const allowOrigin: Record<LabAllowOrigin, string | undefined> = {
    none: undefined,
    '*': '*',
    origin: origin || undefined,
    other: LAB_ELSEWHERE_ORIGIN,
    two: `${origin || 'null'}, ${LAB_ELSEWHERE_ORIGIN}`,
    null: 'null',
  };
  const headers: Record<string, string | undefined> = {
    'access-control-allow-origin': allowOrigin[policy.allowOrigin],
    'access-control-allow-credentials': policy.allowCredentials ? 'true' : undefined,
    'access-control-allow-methods': headerList(policy.allowMethods),
    'access-control-allow-headers': headerList(policy.allowHeaders),
    'access-control-expose-headers': headerList(policy.exposeHeaders),
    'access-control-max-age': policy.maxAge === null ? undefined : String(policy.maxAge),
    vary: policy.varyOrigin ? 'Origin' : undefined,
  };
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * The policy of the lab's redirect, when it carries CORS headers: the actual policy with
 * Access-Control-Allow-Origin naming the request's origin (credentials, methods and the rest as
 * the policy says). The api answers with it, the prediction checks it.
 */
export function labRedirectPolicy(policy: LabCorsPolicy): LabCorsPolicy {
  return { ...policy, allowOrigin: 'origin' };
}

/** The scenario of a URL that names nothing: what a parameter left out stands for. */
export const LAB_DEFAULT_SCENARIO: Readonly<LabCorsScenario> = Object.freeze({
  preflight: LAB_DEFAULT_POLICY,
  actual: LAB_DEFAULT_POLICY,
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
});

// ---- Writing a scenario as a URL (the page) --------------------------------------------------

/** A policy parameter's value as the URL writes it; undefined where the answer has no header. */
function policyText(parameter: LabPolicyParameter, policy: LabCorsPolicy): string | undefined {
  const list = (value: LabHeaderList) => (value === null ? undefined : value === '*' ? '*' : value.join(','));
  switch (parameter) {
    case 'allow-origin':
      return policy.allowOrigin;
    case 'allow-credentials':
      return String(policy.allowCredentials);
    case 'allow-methods':
      return list(policy.allowMethods);
    case 'allow-headers':
      return list(policy.allowHeaders);
    case 'expose-headers':
      return list(policy.exposeHeaders);
    case 'max-age':
      return policy.maxAge === null ? undefined : String(policy.maxAge);
    case 'vary':
      return policy.varyOrigin ? 'on' : 'off';
  }
}

/** A policy's parameters: only what differs from the default policy. */
function policyParameters(policy: LabCorsPolicy): Map<string, string> {
  const params = new Map<string, string>();
  for (const parameter of LAB_POLICY_PARAMETERS) {
    const text = policyText(parameter, policy);
    if (text !== undefined && text !== policyText(parameter, LAB_DEFAULT_POLICY)) params.set(parameter, text);
  }
  return params;
}

/**
 * The query string (without `?`) asking the lab for a scenario: a parameter both requests share
 * is written once; one that differs is written per request (preflight., actual.); the defaults
 * are left out, so the default scenario is the empty string.
 */
export function labCorsQuery(scenario: LabCorsScenario): string {
  const params = new URLSearchParams();
  const preflight = policyParameters(scenario.preflight);
  const actual = policyParameters(scenario.actual);
  for (const name of new Set([...preflight.keys(), ...actual.keys()])) {
    const [before, after] = [preflight.get(name), actual.get(name)];
    if (before === after) params.set(name, before as string);
    else {
      if (before !== undefined) params.set(`preflight.${name}`, before);
      if (after !== undefined) params.set(`actual.${name}`, after);
    }
  }
  const defaults = LAB_DEFAULT_SCENARIO;
  if (scenario.preflightStatus !== defaults.preflightStatus)
    params.set('preflight-status', String(scenario.preflightStatus));
  if (scenario.extraHeader !== null) params.set('extra-header', scenario.extraHeader);
  if (scenario.cookie !== defaults.cookie) params.set('cookie', scenario.cookie);
  if (scenario.cookieSecure !== defaults.cookieSecure) params.set('cookie-secure', String(scenario.cookieSecure));
  if (scenario.cookiePartitioned !== defaults.cookiePartitioned)
    params.set('cookie-partitioned', String(scenario.cookiePartitioned));
  if (scenario.revalidate !== defaults.revalidate) params.set('revalidate', scenario.revalidate);
  if (scenario.auth !== defaults.auth) params.set('auth', scenario.auth);
  if (scenario.protect !== defaults.protect) params.set('protect', scenario.protect);
  if (scenario.redirectTo !== null) params.set('redirect-to', scenario.redirectTo);
  if (scenario.redirectCors !== defaults.redirectCors) params.set('redirect-cors', String(scenario.redirectCors));
  if (scenario.redirectUserinfo !== defaults.redirectUserinfo)
    params.set('redirect-userinfo', String(scenario.redirectUserinfo));
  return params.toString();
}

/** The lab's URL on origin for a scenario. */
export function labCorsUrl(origin: string, scenario: LabCorsScenario): string {
  const query = labCorsQuery(scenario);
  return `${origin}${LAB_CORS_PATH}${query ? `?${query}` : ''}`;
}
