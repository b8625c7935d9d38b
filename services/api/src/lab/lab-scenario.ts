import type {
  LabAllowOrigin,
  LabCookie,
  LabCorsPolicy,
  LabCorsScenario,
  LabHeaderList,
  LabPolicyParameter,
  LabPreflightStatus,
} from '@origin-lab/contract';
import { HttpError, oneOf } from '@origin-lab/server-kit';

export interface LabLimits {
  listItems: number;
  valueChars: number;
}

const ALLOW_ORIGINS: readonly LabAllowOrigin[] = ['none', '*', 'origin', 'other', 'two'];
const PREFLIGHT_STATUSES: readonly LabPreflightStatus[] = [200, 204, 301, 401, 404, 500];
const COOKIES: readonly LabCookie[] = ['off', 'none', 'lax', 'strict'];
const POLICY_PARAMETERS: readonly LabPolicyParameter[] = [
  'allow-origin',
  'allow-credentials',
  'allow-methods',
  'allow-headers',
  'expose-headers',
  'max-age',
  'vary',
];
/** Parameters that are the scenario's as a whole, not one request's. */
const SCENARIO_PARAMETERS = ['preflight-status', 'extra-header', 'cookie', 'cookie-secure'];
/** Parameters the lab lets through untouched: the journal's token and an experiment's mark. */
const PASSING_PARAMETERS = ['visitor', 'mark'];
const MAX_AGE_LIMIT = 86_400;

/** A header name (RFC 9110 token) or a method: what may stand in a list. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a header value may hold here: visible ASCII and spaces, nothing that could end a line. */
const VISIBLE = /^[\x20-\x7e]*$/;

const DEFAULT_POLICY: LabCorsPolicy = {
  allowOrigin: 'origin',
  allowCredentials: false,
  allowMethods: null,
  allowHeaders: null,
  exposeHeaders: null,
  maxAge: null,
  varyOrigin: true,
};

/** Longest parameter name repeated in an error. */
const NAME_CHARS = 64;

function bad(parameter: string, message: string, detail?: string): HttpError {
  return new HttpError(400, message, { parameter: parameter.slice(0, NAME_CHARS), ...(detail ? { detail } : {}) });
}

function list(name: string, raw: string, limits: LabLimits): LabHeaderList {
  if (raw === '*') return '*';
  const items = raw === '' ? [] : raw.split(',').map((item) => item.trim());
  if (items.length > limits.listItems)
    throw bad(name, `${name} may name at most ${limits.listItems} items`, `got ${items.length}`);
  const wrong = items.find((item) => !TOKEN.test(item));
  if (wrong !== undefined)
    throw bad(name, `${name} must be * or a comma-separated list of names`, `"${wrong}" is not a name`);
  return items;
}

function policyValue(name: string, parameter: LabPolicyParameter, raw: string, limits: LabLimits) {
  switch (parameter) {
    case 'allow-origin':
      return { allowOrigin: oneOf(name, raw, ALLOW_ORIGINS) };
    case 'allow-credentials':
      return { allowCredentials: oneOf(name, raw, ['true', 'false']) === 'true' };
    case 'allow-methods':
      return { allowMethods: list(name, raw, limits) };
    case 'allow-headers':
      return { allowHeaders: list(name, raw, limits) };
    case 'expose-headers':
      return { exposeHeaders: list(name, raw, limits) };
    case 'max-age': {
      const rule = `${name} must be a whole number of seconds from 0 to ${MAX_AGE_LIMIT}`;
      if (!/^\d{1,6}$/.test(raw) || Number(raw) > MAX_AGE_LIMIT) throw bad(name, rule, `got "${raw}"`);
      return { maxAge: Number(raw) };
    }
    case 'vary':
      return { varyOrigin: oneOf(name, raw, ['on', 'off']) === 'on' };
  }
}

/**
 * The scenario a lab URL asks for, every parameter checked: an unknown name, a repeated one, a
 * value too long, outside its choices, or holding a byte that could split a header is a 400
 * naming the parameter. Validated before anything is answered, so no header is ever built from
 * a value that was not checked.
 */
export function labScenario(query: string, limits: LabLimits): LabCorsScenario {
  const both: Partial<LabCorsPolicy> = {};
  const only = { preflight: {} as Partial<LabCorsPolicy>, actual: {} as Partial<LabCorsPolicy> };
  const scenario = { preflightStatus: 204 as LabPreflightStatus, extraHeader: null as string | null };
  let cookie: LabCookie = 'off';
  let cookieSecure = false;
  const seen = new Set<string>();

  for (const [name, raw] of new URLSearchParams(query)) {
    if (seen.has(name)) throw bad(name, `${name.slice(0, NAME_CHARS)} was given more than once`);
    seen.add(name);
    if (PASSING_PARAMETERS.includes(name)) continue;
    if (raw.length > limits.valueChars)
      throw bad(name, `${name} may be at most ${limits.valueChars} characters`, `got ${raw.length}`);
    if (!VISIBLE.test(raw))
      throw bad(name, `${name} may hold only visible ASCII characters and spaces (no CR, LF or other control bytes)`);

    const [prefix, bare] = name.includes('.') ? (name.split('.', 2) as [string, string]) : [null, name];
    if (POLICY_PARAMETERS.includes(bare as LabPolicyParameter) && (prefix === null || prefix in only)) {
      const value = policyValue(name, bare as LabPolicyParameter, raw, limits);
      Object.assign(prefix === null ? both : only[prefix as keyof typeof only], value);
      continue;
    }
    switch (name) {
      case 'preflight-status':
        scenario.preflightStatus = Number(oneOf(name, raw, PREFLIGHT_STATUSES.map(String))) as LabPreflightStatus;
        break;
      case 'extra-header':
        scenario.extraHeader = raw;
        break;
      case 'cookie':
        cookie = oneOf(name, raw, COOKIES);
        break;
      case 'cookie-secure':
        cookieSecure = oneOf(name, raw, ['true', 'false']) === 'true';
        break;
      default:
        throw bad(
          name,
          `unknown parameter ${name.slice(0, NAME_CHARS)}`,
          `known: ${[...POLICY_PARAMETERS, ...SCENARIO_PARAMETERS, ...PASSING_PARAMETERS].join(', ')}; a policy parameter may take the prefix preflight. or actual.`,
        );
    }
  }
  return {
    preflight: { ...DEFAULT_POLICY, ...both, ...only.preflight },
    actual: { ...DEFAULT_POLICY, ...both, ...only.actual },
    ...scenario,
    cookie,
    cookieSecure,
  };
}
