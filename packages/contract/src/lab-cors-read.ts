import {
  LAB_ALLOW_ORIGINS,
  LAB_AUTHS,
  LAB_PROTECTS,
  LAB_COOKIES,
  LAB_DEFAULT_POLICY,
  LAB_DEFAULT_SCENARIO,
  LAB_MAX_AGE_LIMIT,
  LAB_PASSING_PARAMETERS,
  LAB_POLICY_PARAMETERS,
  LAB_PREFLIGHT_STATUSES,
  LAB_REVALIDATES,
  LAB_REQUEST_PREFIXES,
  LAB_SCENARIO_PARAMETERS,
  type LabCorsPolicy,
  type LabCorsScenario,
  type LabHeaderList,
  type LabPolicyParameter,
  type LabPreflightStatus,
  type LabRequest,
} from './lab-cors.js';

/**
 * The api's half of the CORS lab's URL codec (the page's half, labCorsQuery, is in lab-cors.ts,
 * with the names, choices and defaults both use). Imported as `@origin-lab/contract/lab-cors-read`:
 * the package's index leaves it out, so the pages' browser modules never load it.
 */

/** The api's limits on a lab URL (its settings LAB_LIST_ITEMS and LAB_VALUE_CHARS). */
export interface LabLimits {
  /** Most names a header list may hold. */
  listItems: number;
  /** Longest value of any one parameter. */
  valueChars: number;
  /** The origins redirect-to may name: the api's configured origins. */
  redirectOrigins: readonly string[];
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

/** true or false, as the URL writes a switch. */
const flag = (name: string, raw: string) => oneOf(name, raw, ['true', 'false']) === 'true';

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
      return { allowCredentials: flag(name, raw) };
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
    cookiePartitioned: defaults.cookiePartitioned,
    revalidate: defaults.revalidate,
    auth: defaults.auth,
    protect: defaults.protect,
    redirectTo: defaults.redirectTo,
    redirectCors: defaults.redirectCors,
    redirectUserinfo: defaults.redirectUserinfo,
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
        scenario.cookieSecure = flag(name, raw);
        break;
      case 'cookie-partitioned':
        scenario.cookiePartitioned = flag(name, raw);
        break;
      case 'revalidate':
        scenario.revalidate = oneOf(name, raw, LAB_REVALIDATES);
        break;
      case 'auth':
        scenario.auth = oneOf(name, raw, LAB_AUTHS);
        break;
      case 'protect':
        scenario.protect = oneOf(name, raw, LAB_PROTECTS);
        break;
      case 'redirect-to':
        scenario.redirectTo = oneOf(name, raw, limits.redirectOrigins);
        break;
      case 'redirect-cors':
        scenario.redirectCors = flag(name, raw);
        break;
      case 'redirect-userinfo':
        scenario.redirectUserinfo = flag(name, raw);
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
