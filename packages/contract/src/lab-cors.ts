import type { EchoReflection } from './index.js';

/**
 * The CORS lab (`/lab/cors`): a server policy chosen by the request's own URL, so a page can try
 * any case. Each policy parameter applies to the preflight and to the actual request, unless
 * written with a `preflight.` or `actual.` prefix, which sets it for that one only.
 */

/** What Access-Control-Allow-Origin says: nothing, `*`, the request's origin, another origin, or two values. */
export type LabAllowOrigin = 'none' | '*' | 'origin' | 'other' | 'two';

/** The statuses a preflight can be answered with. */
export type LabPreflightStatus = 200 | 204 | 301 | 401 | 404 | 500;

/** The SameSite attribute of the demo cookie, or no cookie. */
export type LabCookie = 'none' | 'lax' | 'strict' | 'off';

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

/** The parameters of a lab URL that set a policy (with or without a prefix). */
export type LabPolicyParameter =
  'allow-origin' | 'allow-credentials' | 'allow-methods' | 'allow-headers' | 'expose-headers' | 'max-age' | 'vary';

/** What the lab answers to an actual request: the reflection, as /api/echo, and the policy it applied. */
export interface LabCorsReflection extends EchoReflection {
  scenario: LabCorsScenario;
}
