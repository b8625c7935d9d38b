/**
 * The lab's identity provider (`/lab/idp/`): a small OAuth-shaped sign-in the sign-in lessons
 * call from the page's origin to the third name (SITE_C), so that the provider is cross-site to
 * the app. Its switches are query parameters of the authorize address, the right one first: the
 * provider's own Cross-Origin-Opener-Policy, how it answers, and the attributes of the session
 * cookie it sets at sign-in. The page writes the URL with `labIdpAuthorizeUrl`, the api reads it
 * with `readLabIdpAuthorize`: one list of names and choices for both.
 */
import { readSwitches, type SwitchesRead } from './switches.js';

export const LAB_IDP_PATHS = {
  /** GET: the sign-in form without a session, the answer with one. */
  authorize: '/lab/idp/authorize',
  /** POST (the form): sets the session cookie, then back to authorize. */
  signIn: '/lab/idp/sign-in',
  /** POST, with CORS: a code (or the session cookie) for a token. */
  token: '/lab/idp/token',
  /**
   * GET, in a frame of the app: which of the provider's cookies came, told to the app
   * (?app=<origin>); ?set=partitioned sets a partitioned cookie; ?access=ask shows a button that
   * asks for storage access, then calls the token address with credentials.
   */
  frame: '/lab/idp/frame',
} as const;

/** The partitioned cookie the provider's frame sets when asked (?set=partitioned). */
export const LAB_IDP_PARTITIONED_COOKIE = 'idp_chips';

/** The one client the provider knows: the lab's pages. */
export const LAB_IDP_CLIENT = 'origin-lab';

/**
 * Where the provider may send an answer: this path (the app's side of the lab, which says which
 * of the app's cookies came back with the answer), on one of the lab's own origins, nowhere else.
 */
export const LAB_IDP_CALLBACK_PATH = '/lab/idp-callback';

/** The channel the callback page tells the app's pages on (BroadcastChannel: same origin, whatever the opener policy). */
export const LAB_IDP_CHANNEL = 'origin-lab-sign-in';

/** The session cookie's name. */
export const LAB_IDP_COOKIE = 'idp_session';

/** Longest `state` the provider carries (it is echoed into a page and a URL). */
export const LAB_IDP_STATE_MAX = 200;

/**
 * - response_mode: `query` redirects to the app with ?code&state; `web_message` posts them to the
 *   window that opened the popup; `form_post` posts a form to the app (a cross-site POST).
 * - coop: the Cross-Origin-Opener-Policy of the provider's pages; `report-only` sends
 *   same-origin as Cross-Origin-Opener-Policy-Report-Only instead.
 * - same_site, secure, partitioned: the session cookie's attributes, set at sign-in.
 * - sign_in: `form` asks the visitor to press its button; `auto` signs them in at once, as if they
 *   had (the lessons are about what happens after).
 */
export const LAB_IDP_SWITCHES = {
  response_mode: ['query', 'web_message', 'form_post'],
  coop: ['unsafe-none', 'same-origin-allow-popups', 'same-origin', 'noopener-allow-popups', 'report-only'],
  same_site: ['lax', 'none', 'strict'],
  secure: ['yes', 'no'],
  partitioned: ['no', 'yes'],
  sign_in: ['form', 'auto'],
} as const;

export type LabIdpSwitch = keyof typeof LAB_IDP_SWITCHES;
export type LabIdpSettings = { [name in LabIdpSwitch]: (typeof LAB_IDP_SWITCHES)[name][number] };

export const LAB_IDP_DEFAULTS: LabIdpSettings = {
  response_mode: 'query',
  coop: 'unsafe-none',
  same_site: 'lax',
  secure: 'yes',
  partitioned: 'no',
  sign_in: 'form',
};

/** OAuth's parameters, read as they are and checked by the provider; visitor and mark tag the journal. */
export const LAB_IDP_PARAMETERS = ['client_id', 'redirect_uri', 'state', 'visitor', 'mark'] as const;

/** The authorize address on the provider's origin, with these switches and OAuth's parameters. */
export function labIdpAuthorizeUrl(
  provider: string,
  request: { redirectUri: string; state: string },
  settings: Partial<LabIdpSettings> = {},
): string {
  const url = new URL(LAB_IDP_PATHS.authorize, provider);
  url.searchParams.set('client_id', LAB_IDP_CLIENT);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('state', request.state);
  for (const name of Object.keys(LAB_IDP_SWITCHES) as LabIdpSwitch[]) {
    const value = settings[name];
    if (value !== undefined && value !== LAB_IDP_DEFAULTS[name]) url.searchParams.set(name, value);
  }
  return url.href;
}

/** The switches of an authorize query: the settings, or the first parameter that is wrong. */
export function readLabIdpAuthorize(query: URLSearchParams): SwitchesRead<LabIdpSettings> {
  return readSwitches(query, LAB_IDP_SWITCHES, LAB_IDP_DEFAULTS, LAB_IDP_PARAMETERS);
}

/**
 * The token address's one switch: `origin` answers a lab origin with itself and
 * Access-Control-Allow-Credentials; `star` answers `*`, which a credentialed read cannot use.
 */
export const LAB_IDP_TOKEN_SWITCHES = { allow_origin: ['origin', 'star'] } as const;
export type LabIdpTokenSettings = { allow_origin: (typeof LAB_IDP_TOKEN_SWITCHES)['allow_origin'][number] };

/** The switches of a token address: the settings, or the first parameter that is wrong. */
export function readLabIdpToken(query: URLSearchParams): SwitchesRead<LabIdpTokenSettings> {
  return readSwitches(query, LAB_IDP_TOKEN_SWITCHES, { allow_origin: 'origin' }, ['visitor', 'mark']);
}
