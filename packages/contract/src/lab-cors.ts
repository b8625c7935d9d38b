import type { EchoReflection } from './echo.js';

/**
 * The CORS lab (`/lab/cors`): a server policy chosen by the request's own URL, so a page can try
 * any case. Each policy parameter applies to the preflight and to the actual request, unless
 * written with a `preflight.` or `actual.` prefix, which sets it for that one only.
 *
 * The URL is written here once: its parameter names and their choices, its defaults, and the
 * codec: `labCorsQuery` writes a scenario as a URL (the playground page), `readLabCorsQuery` reads
 * and checks one (the api). The api's limits (list items, value length) are its settings, passed in.
 */

/** Where the api serves the lab. */
export const LAB_CORS_PATH = '/lab/cors';

/** What Access-Control-Allow-Origin says: nothing, `*`, the request's origin, another origin, or two values. */
export const LAB_ALLOW_ORIGINS = ['none', '*', 'origin', 'other', 'two'] as const;
export type LabAllowOrigin = (typeof LAB_ALLOW_ORIGINS)[number];

/** The statuses a preflight can be answered with. */
export const LAB_PREFLIGHT_STATUSES = [200, 204, 301, 401, 404, 500] as const;
export type LabPreflightStatus = (typeof LAB_PREFLIGHT_STATUSES)[number];

/** The SameSite attribute of the demo cookie, or no cookie (off). */
export const LAB_COOKIES = ['off', 'none', 'lax', 'strict'] as const;
export type LabCookie = (typeof LAB_COOKIES)[number];

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
export const LAB_SCENARIO_PARAMETERS = ['preflight-status', 'extra-header', 'cookie', 'cookie-secure'] as const;

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

/** The scenario of a URL that names nothing: what a parameter left out stands for. */
export const LAB_DEFAULT_SCENARIO: Readonly<LabCorsScenario> = Object.freeze({
  preflight: LAB_DEFAULT_POLICY,
  actual: LAB_DEFAULT_POLICY,
  preflightStatus: 204,
  extraHeader: null,
  cookie: 'off',
  cookieSecure: false,
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
  return params.toString();
}

/** The lab's URL on origin for a scenario. */
export function labCorsUrl(origin: string, scenario: LabCorsScenario): string {
  const query = labCorsQuery(scenario);
  return `${origin}${LAB_CORS_PATH}${query ? `?${query}` : ''}`;
}

// ---- Reading a URL as a scenario (the api) ---------------------------------------------------

/** The api's limits on a lab URL (its settings LAB_LIST_ITEMS and LAB_VALUE_CHARS). */
export interface LabLimits {
  /** Most names a header list may hold. */
  listItems: number;
  /** Longest value of any one parameter. */
  valueChars: number;
}

/** Why a lab URL was refused: the api answers it as its 400 Error object. */
export interface LabQueryFailure {
  /** The parameter at fault, as the URL named it (cut to 64 characters). */
  parameter: string;
  /** What is wrong, for the Error object's `error`. */
  error: string;
  detail?: string;
}

/** A lab URL read: the scenario, or why it was refused. */
export type LabQueryResult = { ok: true; scenario: LabCorsScenario } | { ok: false; failure: LabQueryFailure };

/** A header name (RFC 9110 token) or a method: what may stand in a list. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a header value may hold here: visible ASCII and spaces, nothing that could end a line. */
const VISIBLE = /^[\x20-\x7e]*$/;
/** Longest parameter name, and longest part of a wrong value, repeated in a failure. */
const SHOWN_CHARS = 64;

/** Thrown inside the reader only, and turned into its result. */
class Refused extends Error {
  constructor(readonly failure: LabQueryFailure) {
    super(failure.error);
  }
}

function refuse(parameter: string, error: string, detail?: string): Refused {
  return new Refused({ parameter: parameter.slice(0, SHOWN_CHARS), error, ...(detail ? { detail } : {}) });
}

/** One of the listed choices, or a failure naming them and what came instead. */
function oneOf<T extends string | number>(name: string, raw: string, choices: readonly T[]): T {
  const found = choices.find((choice) => String(choice) === raw);
  if (found === undefined)
    throw refuse(name, `${name} must be one of ${choices.join(', ')}`, `got "${raw.slice(0, SHOWN_CHARS)}"`);
  return found;
}

function list(name: string, raw: string, limits: LabLimits): LabHeaderList {
  if (raw === '*') return '*';
  const items = raw === '' ? [] : raw.split(',').map((item) => item.trim());
  if (items.length > limits.listItems)
    throw refuse(name, `${name} may name at most ${limits.listItems} items`, `got ${items.length}`);
  const wrong = items.find((item) => !TOKEN.test(item));
  if (wrong !== undefined)
    throw refuse(name, `${name} must be * or a comma-separated list of names`, `"${wrong}" is not a name`);
  return items;
}

function policyValue(name: string, parameter: LabPolicyParameter, raw: string, limits: LabLimits) {
  switch (parameter) {
    case 'allow-origin':
      return { allowOrigin: oneOf(name, raw, LAB_ALLOW_ORIGINS) };
    case 'allow-credentials':
      return { allowCredentials: oneOf(name, raw, ['true', 'false']) === 'true' };
    case 'allow-methods':
      return { allowMethods: list(name, raw, limits) };
    case 'allow-headers':
      return { allowHeaders: list(name, raw, limits) };
    case 'expose-headers':
      return { exposeHeaders: list(name, raw, limits) };
    case 'max-age': {
      const rule = `${name} must be a whole number of seconds from 0 to ${LAB_MAX_AGE_LIMIT}`;
      if (!/^\d{1,6}$/.test(raw) || Number(raw) > LAB_MAX_AGE_LIMIT) throw refuse(name, rule, `got "${raw}"`);
      return { maxAge: Number(raw) };
    }
    case 'vary':
      return { varyOrigin: oneOf(name, raw, ['on', 'off']) === 'on' };
  }
}

const isOneOf = <T extends string>(choices: readonly T[], value: string): value is T =>
  (choices as readonly string[]).includes(value);

function readScenario(query: string, limits: LabLimits): LabCorsScenario {
  const both: Partial<LabCorsPolicy> = {};
  const only: Record<LabRequest, Partial<LabCorsPolicy>> = { preflight: {}, actual: {} };
  const defaults = LAB_DEFAULT_SCENARIO;
  const scenario: Omit<LabCorsScenario, LabRequest> = {
    preflightStatus: defaults.preflightStatus,
    extraHeader: defaults.extraHeader,
    cookie: defaults.cookie,
    cookieSecure: defaults.cookieSecure,
  };
  const seen = new Set<string>();

  for (const [name, raw] of new URLSearchParams(query)) {
    if (seen.has(name)) throw refuse(name, `${name.slice(0, SHOWN_CHARS)} was given more than once`);
    seen.add(name);
    if (isOneOf(LAB_PASSING_PARAMETERS, name)) continue;
    if (raw.length > limits.valueChars)
      throw refuse(name, `${name} may be at most ${limits.valueChars} characters`, `got ${raw.length}`);
    if (!VISIBLE.test(raw))
      throw refuse(
        name,
        `${name} may hold only visible ASCII characters and spaces (no CR, LF or other control bytes)`,
      );

    const [prefix, bare] = name.includes('.') ? (name.split('.', 2) as [string, string]) : [null, name];
    if (isOneOf(LAB_POLICY_PARAMETERS, bare) && (prefix === null || isOneOf(LAB_REQUEST_PREFIXES, prefix))) {
      Object.assign(prefix === null ? both : only[prefix], policyValue(name, bare, raw, limits));
      continue;
    }
    switch (name) {
      case 'preflight-status':
        scenario.preflightStatus = Number(oneOf(name, raw, LAB_PREFLIGHT_STATUSES.map(String))) as LabPreflightStatus;
        break;
      case 'extra-header':
        scenario.extraHeader = raw;
        break;
      case 'cookie':
        scenario.cookie = oneOf(name, raw, LAB_COOKIES);
        break;
      case 'cookie-secure':
        scenario.cookieSecure = oneOf(name, raw, ['true', 'false']) === 'true';
        break;
      default:
        throw refuse(
          name,
          `unknown parameter ${name.slice(0, SHOWN_CHARS)}`,
          `known: ${[...LAB_POLICY_PARAMETERS, ...LAB_SCENARIO_PARAMETERS, ...LAB_PASSING_PARAMETERS].join(', ')}; a policy parameter may take the prefix preflight. or actual.`,
        );
    }
  }
  return {
    preflight: { ...LAB_DEFAULT_POLICY, ...both, ...only.preflight },
    actual: { ...LAB_DEFAULT_POLICY, ...both, ...only.actual },
    ...scenario,
  };
}

/**
 * The scenario a lab URL's query asks for, every parameter checked: an unknown name, a repeated
 * one, a value too long, outside its choices, or holding a byte that could split a header is a
 * failure naming the parameter. The api reads a URL with this before it answers anything, so no
 * header is ever built from a value that was not checked.
 */
export function readLabCorsQuery(query: string, limits: LabLimits): LabQueryResult {
  try {
    return { ok: true, scenario: readScenario(query, limits) };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, failure: err.failure };
    throw err;
  }
}
