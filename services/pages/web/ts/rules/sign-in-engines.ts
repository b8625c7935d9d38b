import type { EngineCell, EngineRow, EngineTable } from './engine-rows.js';

/**
 * Every experiment of the sign-in page, engine by engine, as measured at /sign-in.html (an app
 * with no opener policy of its own): a popup "answered" or "cut off", the app's cookies that came
 * back with a redirect, a token call's status. Only the engines page loads it; every e2e run of
 * the page compares its outcomes with these cells (e2e/specs/sign-in.spec.ts).
 */
const all = (cell: EngineCell) => ({ chromium: cell, firefox: cell, webkit: cell });

const ANSWERED: EngineCell = { outcome: 'answered', said: 'the provider’s message came to window.opener' };
const CUT_OFF: EngineCell = {
  outcome: 'cut off',
  said: 'a new browsing context group: window.opener null, popup.closed true at once',
};

const GRANTED: EngineCell = {
  outcome: 'granted, 200',
  said: 'granted once allowed; the frame’s call carried the cookie and Sec-Fetch-Storage-Access: active',
};

const ROWS: readonly EngineRow[] = [
  { experiment: 'popup-coop-unsafe-none', asks: 'a popup, the provider with no opener policy', engines: all(ANSWERED) },
  { experiment: 'popup-coop-same-origin', asks: 'the provider sending same-origin', engines: all(CUT_OFF) },
  {
    experiment: 'popup-coop-same-origin-allow-popups',
    asks: 'the provider sending same-origin-allow-popups',
    engines: all(CUT_OFF),
  },
  {
    experiment: 'popup-coop-noopener-allow-popups',
    asks: 'the provider sending noopener-allow-popups',
    engines: {
      chromium: CUT_OFF,
      firefox: { outcome: 'answered', said: 'does not know the value (Firefox 153): taken as unsafe-none' },
      webkit: CUT_OFF,
    },
  },
  {
    experiment: 'popup-coop-report-only',
    asks: 'the provider sending same-origin as report-only',
    engines: all({ ...ANSWERED, said: 'report-only cuts nothing' }),
  },
  {
    experiment: 'redirect-query',
    asks: 'back by a redirect (GET) through the provider: the app’s cookies that came',
    engines: {
      chromium: {
        outcome: 'app_lax, app_none, app_strict',
        said: 'Strict too: it judges the navigation by who started it (the app), not the redirect',
      },
      firefox: { outcome: 'app_lax, app_none', said: 'as RFC 6265bis says: Lax with a top-level GET, never Strict' },
      webkit: {
        outcome: 'app_lax',
        said: 'no app_none: the Secure cookie an http://localhost page set never comes back',
      },
    },
  },
  {
    experiment: 'redirect-form-post',
    asks: 'back by a posted form (form_post): the app’s cookies that came',
    engines: {
      chromium: { outcome: 'app_none', said: 'only SameSite=None: Lax goes with safe methods only' },
      firefox: { outcome: 'app_none', said: 'only SameSite=None: Lax goes with safe methods only' },
      webkit: { outcome: 'none', said: 'not even app_none (the Secure cookie of an http:// page)' },
    },
  },
  {
    experiment: 'token-credentialed',
    asks: 'a token from the provider’s cookie, by a credentialed call from the app',
    engines: {
      chromium: { outcome: '401', said: 'the cookie blocked: this profile’s third-party cookie setting' },
      firefox: { outcome: '401', said: 'the cookie partitioned by top-level site (Total Cookie Protection)' },
      webkit: { outcome: '401', said: 'the provider’s cookie did not go' },
    },
  },
  {
    experiment: 'token-wildcard',
    asks: 'the same call answered with Access-Control-Allow-Origin: *',
    engines: all({ outcome: 'TypeError', said: 'a credentialed read of * is refused (Fetch)' }),
  },
  {
    experiment: 'frame-third-party-cookie',
    asks: 'the provider in a frame: its cookie set as the top-level site',
    engines: {
      chromium: { outcome: 'not sent', said: 'blocked: this profile’s third-party cookie setting; no storage access' },
      firefox: { outcome: 'not sent', said: 'another partition (Total Cookie Protection); no storage access' },
      webkit: { outcome: 'not sent', said: 'not sent; no storage access' },
    },
  },
  {
    experiment: 'frame-partitioned-cookie',
    asks: 'a Partitioned cookie (CHIPS) the frame set, in the next frame',
    engines: {
      chromium: { outcome: 'sent', said: 'kept under this page’s site (CHIPS), blocked third-party cookies or not' },
      firefox: { outcome: 'sent', said: 'kept in this page’s partition' },
      webkit: { outcome: 'not sent', said: 'kept no such cookie from the framed http:// provider' },
    },
  },
  {
    experiment: 'frame-partitioned-elsewhere',
    asks: 'that Partitioned cookie, the provider framed by another site',
    engines: {
      chromium: { outcome: 'not sent', said: 'another top-level site, another partition (CHIPS)' },
      firefox: { outcome: 'not sent', said: 'another top-level site, another partition' },
      webkit: { outcome: 'not sent', said: 'kept none to begin with' },
    },
  },
  {
    experiment: 'frame-storage-access',
    asks: 'storage access, asked for by the framed provider after a click in it: then its token call',
    engines: {
      chromium: GRANTED,
      firefox: GRANTED,
      webkit: {
        outcome: 'granted, 401',
        said: 'granted at once, no prompt (no tracking prevention); the provider’s Secure cookie, set over http://, was never kept, so none came',
      },
    },
  },
];

export const SIGN_IN_ENGINES: EngineTable = {
  page: 'sign-in',
  caption: 'Each sign-in experiment, from the app with no opener policy of its own',
  rows: ROWS,
};
