import { describe, expect, it } from 'vitest';
import type { SawRow } from '../web/ts/sign-in/server-saw.js';
import { signInWhy, type SignInFacts } from '../web/ts/sign-in/why.js';

/**
 * The sign-in page's Why, read from what the provider and the app's callback received. Written
 * from HTML (an opener policy that differs from the opener's, on another origin, starts a new
 * browsing context group), RFC 6265bis (SameSite: Strict never goes with a cross-site request,
 * Lax only with a top-level navigation by a safe method; Secure cookies from a secure origin),
 * CHIPS (a partitioned cookie goes back under the top-level site it was set under) and Fetch
 * Metadata (Sec-Fetch-Site, -Dest, -Storage-Access), not from the page's own output.
 */
const FACTS: SignInFacts = {
  appCoop: 'unsafe-none',
  appCookies: { app_lax: 'Lax', app_strict: 'Strict', app_none: 'None; Secure' },
  pageScheme: 'http:',
};

const row = (request: string, overrides: Partial<SawRow> = {}): SawRow => ({
  request,
  site: 'cross-site',
  mode: 'navigate',
  dest: 'document',
  storageAccess: null,
  cookies: [],
  status: 200,
  openerPolicy: null,
  setCookies: [],
  ...overrides,
});

const authorize = (overrides: Partial<SawRow> = {}) => row('GET /lab/idp/authorize', overrides);
const frame = (overrides: Partial<SawRow> = {}) => row('GET /lab/idp/frame', { dest: 'iframe', ...overrides });
const rulesOf = (rows: SawRow[], facts: Partial<SignInFacts> = {}) =>
  signInWhy(rows, { ...FACTS, ...facts }).map(({ rule, request }) => `${rule} ${request}`);

describe('the sign-in Why: the app’s cookies on the way back', () => {
  it('a form_post back (a cross-site POST) loses the Lax and the Strict cookie, each with its attribute and fix', () => {
    const reasons = signInWhy([authorize(), row('POST /lab/idp-callback', { cookies: ['app_none'] })], FACTS);
    expect(reasons.map((reason) => reason.rule)).toEqual(['same-site-lax', 'same-site-strict']);
    expect(reasons[0]).toMatchObject({ request: 'POST /lab/idp-callback' });
    expect(reasons[0]!.text).toContain('app_lax (SameSite=Lax)');
    expect(reasons[0]!.text).toContain('POST');
    expect(reasons[0]!.fix).toContain('SameSite=None; Secure');
    expect(reasons[1]!.text).toContain('app_strict (SameSite=Strict)');
  });

  it('a query back (a cross-site top-level GET): only a Strict cookie left behind has a SameSite reason', () => {
    expect(rulesOf([row('GET /lab/idp-callback', { cookies: ['app_none'] })])).toEqual([
      'same-site-strict GET /lab/idp-callback',
    ]);
  });

  it('a Secure cookie missing from an http page is named as such; from https, nothing the rows explain', () => {
    const back = [row('GET /lab/idp-callback', { cookies: ['app_lax', 'app_strict'] })];
    expect(rulesOf(back)).toEqual(['secure-over-http GET /lab/idp-callback']);
    expect(rulesOf(back, { pageScheme: 'https:' })).toEqual([]);
  });

  it('a same-site way back loses nothing to SameSite', () => {
    expect(rulesOf([row('POST /lab/idp-callback', { site: 'same-site', cookies: ['app_none'] })])).toEqual([]);
  });
});

describe('the sign-in Why: the provider embedded in the app', () => {
  it('a frame without the session cookie that a top-level request carried: third-party cookies, with the storage access header', () => {
    const [reason, ...rest] = signInWhy(
      [authorize({ cookies: ['idp_session'] }), frame({ storageAccess: 'none' })],
      FACTS,
    );
    expect(rest).toEqual([]);
    expect(reason).toMatchObject({ rule: 'third-party-cookie', request: 'GET /lab/idp/frame' });
    expect(reason!.text).toContain('GET /lab/idp/authorize carried');
    expect(reason!.text).toContain('Sec-Fetch-Dest: iframe');
    expect(reason!.text).toContain('Sec-Fetch-Storage-Access: none');
    expect(reason!.fix).toContain('requestStorageAccess()');
  });

  it('after a top-level answer that only set the cookie, the reason also allows that it was never kept', () => {
    const [reason] = signInWhy([authorize({ setCookies: ['idp_session'] }), frame()], FACTS);
    expect(reason!.rule).toBe('third-party-cookie');
    expect(reason!.text).toContain('did not keep the cookie at all');
    expect(reason!.text).not.toContain('Sec-Fetch-Storage-Access');
  });

  it('a credentialed token call without the cookie, answered 401, is the same third-party rule', () => {
    const [reason] = signInWhy(
      [
        authorize({ cookies: ['idp_session'] }),
        row('POST /lab/idp/token', { mode: 'cors', dest: 'empty', status: 401, storageAccess: 'none' }),
      ],
      FACTS,
    );
    expect(reason).toMatchObject({ rule: 'third-party-cookie', request: 'POST /lab/idp/token' });
    expect(reason!.text).toContain('401');
  });

  it('no reason where the cookie came, or where no top-level request of the run had it', () => {
    expect(rulesOf([authorize({ cookies: ['idp_session'] }), frame({ cookies: ['idp_session'] })])).toEqual([]);
    expect(rulesOf([authorize(), frame()])).toEqual([]);
  });

  it('a partitioned cookie one frame set, missing from the next frame on the same page: not kept', () => {
    const rows = [frame({ setCookies: ['idp_chips'] }), frame()];
    expect(rulesOf(rows)).toEqual(['partitioned-not-kept GET /lab/idp/frame']);
    expect(rulesOf([rows[0]!, frame({ cookies: ['idp_chips'] })])).toEqual([]);
  });
});

describe('the sign-in Why: a popup cut off by an opener policy', () => {
  const sameOrigin = { enforced: 'same-origin', reportOnly: null };

  it('names the provider’s header on the answer that carried it, with the fix', () => {
    const [reason, ...rest] = signInWhy([authorize({ openerPolicy: sameOrigin })], { ...FACTS, popupCutOff: true });
    expect(rest).toEqual([]);
    expect(reason).toMatchObject({ rule: 'opener-policy-provider', request: 'GET /lab/idp/authorize' });
    expect(reason!.text).toContain('Cross-Origin-Opener-Policy: same-origin');
    expect(reason!.fix).toMatch(/same-origin-allow-popups|redirect/);
  });

  it('names this page’s own same-origin first: it cuts off every popup, whatever the provider sends', () => {
    expect(
      rulesOf([authorize({ openerPolicy: { enforced: 'unsafe-none', reportOnly: null } })], {
        appCoop: 'same-origin',
        popupCutOff: true,
      }),
    ).toEqual(['opener-policy-app This page']);
  });

  it('nothing when the popup answered, or when only a report-only policy came', () => {
    expect(rulesOf([authorize({ openerPolicy: sameOrigin })], { popupCutOff: false })).toEqual([]);
    expect(
      rulesOf([authorize({ openerPolicy: { enforced: null, reportOnly: 'same-origin' } })], { popupCutOff: true }),
    ).toEqual([]);
  });
});
