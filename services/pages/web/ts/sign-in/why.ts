// Why a sign-in experiment failed, read from what the provider and the app's callback received
// (the rows of "The server saw"), never from what the experiment expected: a cookie that stayed
// behind is named with its attribute and the request that lost it, a frame or a call without the
// provider's cookie with the third-party cookie policy, a popup cut off with the opener policy
// that cut it. Each reason carries its fix. Pure: the page draws them in the Why of its server view.
import { LAB_IDP_CALLBACK_PATH, LAB_IDP_COOKIE, LAB_IDP_PARTITIONED_COOKIE } from '@origin-lab/contract/lab-idp';
import type { SawRow } from './server-saw.js';

export type SignInRule =
  | 'opener-policy-app'
  | 'opener-policy-provider'
  | 'same-site-strict'
  | 'same-site-lax'
  | 'secure-over-http'
  | 'third-party-cookie'
  | 'partitioned-not-kept';

export interface SignInReason {
  rule: SignInRule;
  /** The request the reason is about ("POST /lab/idp-callback"), or the page itself. */
  request: string;
  text: string;
  fix: string;
}

/** What the page knows of itself, and what it saw that the server cannot. */
export interface SignInFacts {
  /** This page's own Cross-Origin-Opener-Policy (the app's side of every popup). */
  appCoop: string;
  /** The cookies the app set for its callback before the sign-in: name, and SameSite as set. */
  appCookies: Readonly<Record<string, string>>;
  /** This page's scheme: a Secure cookie set from http:// may not be kept. */
  pageScheme: string;
  /** A popup sign-in: the app lost its handle on the popup (popup.closed true, no message). */
  popupCutOff?: boolean;
}

/** Every reason the rows give, in the order of the requests. */
export function signInWhy(rows: readonly SawRow[], facts: SignInFacts): SignInReason[] {
  return [...openerPolicyWhy(rows, facts), ...rows.flatMap((row, at) => rowWhy(row, rows.slice(0, at), facts))];
}

function rowWhy(row: SawRow, before: readonly SawRow[], facts: SignInFacts): SignInReason[] {
  if (row.request.endsWith(` ${LAB_IDP_CALLBACK_PATH}`)) return lostAppCookies(row, facts);
  if (row.dest === 'document') return [];
  return [...thirdPartyWhy(row, before), ...partitionedWhy(row, before)];
}

/** A popup the app lost: this page's own policy, or the one the provider's answer carried. */
function openerPolicyWhy(rows: readonly SawRow[], facts: SignInFacts): SignInReason[] {
  if (!facts.popupCutOff) return [];
  if (facts.appCoop === 'same-origin')
    return [
      {
        rule: 'opener-policy-app',
        request: 'This page',
        text: 'sends Cross-Origin-Opener-Policy: same-origin, so every popup it opens to another origin starts a browsing context group of its own: the popup’s window.opener is null and popup.closed reads true.',
        fix: 'The app sends same-origin-allow-popups, or signs in by redirect.',
      },
    ];
  const answered = rows.find(
    (row) => row.dest === 'document' && row.openerPolicy?.enforced && row.openerPolicy.enforced !== 'unsafe-none',
  );
  if (!answered) return [];
  return [
    {
      rule: 'opener-policy-provider',
      request: answered.request,
      text: `was answered with Cross-Origin-Opener-Policy: ${answered.openerPolicy!.enforced}: the popup’s page and its opener differ in policy and origin, so it went to a browsing context group of its own, window.opener null, and the app’s handle reads closed.`,
      fix: 'The provider sends no opener policy on its sign-in answer (same-origin-allow-popups on the app protects only the popups the app opens), or the app signs in by redirect.',
    },
  ];
}

/** The app's cookies that did not come back to its callback, each by its attribute. */
function lostAppCookies(row: SawRow, facts: SignInFacts): SignInReason[] {
  const method = row.request.split(' ')[0];
  const reasons: SignInReason[] = [];
  for (const [name, sameSite] of Object.entries(facts.appCookies)) {
    if (row.cookies.includes(name)) continue;
    const reason = lostBecause(name, sameSite, method, row, facts);
    if (reason) reasons.push({ ...reason, request: row.request });
  }
  return reasons;
}

function lostBecause(
  name: string,
  sameSite: string,
  method: string | undefined,
  row: SawRow,
  facts: SignInFacts,
): Omit<SignInReason, 'request'> | null {
  const crossSite = row.site === 'cross-site';
  if (sameSite === 'Strict' && crossSite)
    return {
      rule: 'same-site-strict',
      text: `came without ${name} (SameSite=Strict): it came by way of the provider’s site (Sec-Fetch-Site: cross-site), and a Strict cookie never goes with a request another site started.`,
      fix: `Keep the sign-in state in a Lax cookie (SameSite=None; Secure if the answer comes by form_post).`,
    };
  if (sameSite === 'Lax' && crossSite && method !== 'GET')
    return {
      rule: 'same-site-lax',
      text: `came without ${name} (SameSite=Lax): across sites a Lax cookie goes only with a top-level navigation by a safe method, and this one came by ${method ?? 'another method'}.`,
      fix: `Make ${name} SameSite=None; Secure, or have the provider answer by query (a GET).`,
    };
  if (/\bSecure\b/.test(sameSite) && facts.pageScheme !== 'https:')
    return {
      rule: 'secure-over-http',
      text: `came without ${name} (SameSite=None; Secure): SameSite lets it go, but this page is not https, and this browser keeps no Secure cookie it sets.`,
      fix: 'Serve the app over https.',
    };
  return null;
}

/** The provider's session cookie: set or sent top-level earlier in the run, missing from this embedded request. */
function thirdPartyWhy(row: SawRow, before: readonly SawRow[]): SignInReason[] {
  const session = LAB_IDP_COOKIE;
  if (row.site !== 'cross-site' || row.cookies.includes(session)) return [];
  const topLevel = before.find(
    (earlier) =>
      earlier.dest === 'document' && (earlier.cookies.includes(session) || earlier.setCookies.includes(session)),
  );
  if (!topLevel) return [];
  // Carried top-level, the browser had it; only set, it may also not have kept it.
  const earlier = topLevel.cookies.includes(session)
    ? `which ${topLevel.request} carried, top-level, a moment before`
    : `which the answer to ${topLevel.request} set, top-level, a moment before`;
  const policy = topLevel.cookies.includes(session)
    ? 'this browser blocks or partitions third-party cookies'
    : 'this browser blocks or partitions third-party cookies, or did not keep the cookie at all (a Secure cookie from http://, for one)';
  const access =
    row.storageAccess === null ? '' : ` Its Sec-Fetch-Storage-Access: ${row.storageAccess}: no storage access granted.`;
  const status = row.status === 401 ? ' The provider answered 401.' : '';
  return [
    {
      rule: 'third-party-cookie',
      request: row.request,
      text: `came without ${session}, ${earlier}: embedded in this page (Sec-Fetch-Dest: ${row.dest ?? 'not sent'}) the provider is a third party, and ${policy}.${access}${status}`,
      fix: 'The provider’s frame calls document.requestStorageAccess() after a click in it; or the app signs in top-level (a popup or a redirect) and keeps the token, not the cookie; or an embedded state lives in a Partitioned cookie.',
    },
  ];
}

/** A partitioned cookie an earlier frame on this page set, missing from a later one under the same top-level site. */
function partitionedWhy(row: SawRow, before: readonly SawRow[]): SignInReason[] {
  const partitioned = LAB_IDP_PARTITIONED_COOKIE;
  if (row.cookies.includes(partitioned)) return [];
  const setter = before.find((earlier) => earlier.dest === row.dest && earlier.setCookies.includes(partitioned));
  if (!setter) return [];
  return [
    {
      rule: 'partitioned-not-kept',
      request: row.request,
      text: `came without ${partitioned}, which the frame before it (${setter.request}) set with Partitioned under this same top-level site: CHIPS would send it back here; this browser did not keep it.`,
      fix: 'Where a browser keeps no partitioned cookie, the frame asks for storage access (document.requestStorageAccess() after a click), or the app signs in top-level and keeps the token.',
    },
  ];
}
