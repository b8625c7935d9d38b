// The sign-in page: this page is the app, the lab's identity provider answers on the third name
// (cross-site), and each experiment signs in one way and shows what the app could observe: a
// popup answered by a message to its opener (under each opener policy of the provider), a
// redirect back carrying (or not) the app's cookies, the provider framed (its cookie sent, kept
// partitioned, or let in by storage access after a click in the frame), a credentialed call for a
// token.
import type { LabIdpSettings } from '@origin-lab/contract/lab-idp';
import { byId, h } from '../frame/dom.js';
import { experiment, type ExperimentSpec } from '../frame/experiment.js';
import { currentSite } from '../frame/site.js';
import { setupPage } from '../page/setup-page.js';
import { knownDifference } from '../rules/known-differences.js';
import { SIGN_IN_DIFFERENCES } from '../rules/sign-in-differences.js';
import {
  APP_COOKIES,
  credentialedToken,
  framedSignIn,
  frameForOpener,
  partitionedElsewhere,
  popupSignIn,
  redirectSignIn,
  storageAccessSignIn,
  takeMarks,
  type AccessSeen,
  type FrameSeen,
  type PopupSeen,
  type RedirectSeen,
  type TokenSeen,
} from '../sign-in/flows.js';
import { sawTable, sawUnder } from '../sign-in/server-saw.js';
import { signInWhy, type SignInFacts, type SignInReason } from '../sign-in/why.js';

const ctx = setupPage();
const box = ctx.experiments;
const provider = currentSite().third;
byId('sign-in-provider').textContent = provider ?? 'nowhere: this server has no third name (SITE_C=none)';
// Opened by frame-partitioned-elsewhere on the app's other site: frame the provider, tell the opener.
void frameForOpener(provider, currentSite().other);

/**
 * The sign-in experiments' reasons, read from the journal, in a list of their own right under the
 * server view's Why (whose own list is the failed reads'): the panel every page loads stays as it is.
 */
const signInReasons = h('ul', { class: 'why', id: 'sign-in-why', 'aria-live': 'polite' });
document.querySelector('#server-view ul.why')?.after(signInReasons);
const reasonsBy = new Map<string, HTMLElement[]>();
function showReasons(id: string, items: HTMLElement[]): void {
  reasonsBy.set(id, items);
  signInReasons.replaceChildren(...[...reasonsBy.values()].flat());
}

/** A reason in the server view's Why: the experiment, the request, why, and the fix. */
const reasonItem = (spec: ExperimentSpec, reason: SignInReason) =>
  h(
    'li',
    { 'data-rule': reason.rule, 'data-experiment': spec.id },
    h('a', { href: `#${spec.id}` }, spec.title),
    ': ',
    h('strong', {}, reason.request),
    ` ${reason.text} `,
    h('em', {}, 'Fix:'),
    ` ${reason.fix}`,
  );

/**
 * An experiment of this page: what it observed, what the provider and the app's callback
 * received, and the Why those requests give (in the server view's Why).
 */
function signInExperiment(spec: ExperimentSpec): void {
  experiment(box, {
    ...spec,
    async run() {
      takeMarks(); // what an earlier run that failed left behind
      const outcome = await spec.run();
      const rows = await sawUnder(ctx.journal, takeMarks());
      const seen = outcome.observed;
      const facts = { ...PAGE_FACTS, popupCutOff: seen.closedBeforeAnswer === true && seen.message === false };
      showReasons(
        spec.id,
        signInWhy(rows, facts).map((reason) => reasonItem(spec, reason)),
      );
      return { ...outcome, serverSaw: sawTable(rows) };
    },
  });
}

const POPUP = 'it opens a popup, which a browser lets a page open only right after a click';

/** The provider's origin, or an error saying there is none (SITE_C=none). */
function providerOrThrow(): string {
  if (provider === null) throw new Error('this server has no third name (SITE_C=none): the provider lives there');
  return provider;
}

/**
 * This page's own opener policy, as its address says (services/pages/src/sign-in-addresses.ts):
 * the app's side of every popup. same-origin cuts off every popup to another site;
 * same-origin-allow-popups keeps those whose page allows it; none leaves it to the provider.
 */
const APP_COOP = /^\/sign-in-coop-([a-z-]+)\.html$/.exec(location.pathname)?.[1] ?? 'unsafe-none';

/** What the Why of each experiment knows of this page (sign-in/why.ts). */
const PAGE_FACTS: SignInFacts = {
  appCoop: APP_COOP,
  appCookies: APP_COOKIES,
  pageScheme: location.protocol,
};

/** The provider's header as the page asked for it (report-only is its own header). */
const providerHeader = (coop: LabIdpSettings['coop']) =>
  coop === 'report-only'
    ? 'Cross-Origin-Opener-Policy-Report-Only: same-origin'
    : `Cross-Origin-Opener-Policy: ${coop}`;

function popupSaid(seen: PopupSeen, coop: LabIdpSettings['coop']): string {
  if (seen.blocked) return 'The browser blocked the popup: run it with a click of its own.';
  if (seen.message) return 'The provider posted the code to window.opener, and the app heard it: signed in.';
  if (seen.closedBeforeAnswer)
    return APP_COOP === 'same-origin'
      ? 'popup.closed read true at once and no message came: this page (the app) sends Cross-Origin-Opener-Policy: same-origin, which put the popup in a browsing context group of its own. Fix: the app sends same-origin-allow-popups instead, or signs in by redirect.'
      : `popup.closed read true at once and no message came: the provider’s sign-in page sent ${providerHeader(coop)}, which put it in a browsing context group of its own, so its window.opener is null and the app’s handle reads closed. Fix: the provider sends no opener policy on its sign-in answer (same-origin-allow-popups on the app protects only the popups the app opens), or the app signs in by redirect.`;
  return 'No message came, and the popup stayed open.';
}

const APP_SAYS: Record<string, string> = {
  'unsafe-none': 'This page (the app) sends no opener policy: the provider’s decides.',
  'same-origin-allow-popups':
    'This page (the app) sends same-origin-allow-popups: it keeps the popups it opens, unless their own page cuts them off.',
  'same-origin':
    'This page (the app) sends same-origin: every popup to another site is cut off, whatever the provider sends.',
};

/** Whether a popup to a provider sending providerWorks's policy can answer this app. */
const answersThisApp = (providerWorks: boolean) => APP_COOP !== 'same-origin' && providerWorks;

const POPUPS: { id: string; coop: LabIdpSettings['coop']; title: string; works: boolean; predicted: string }[] = [
  {
    id: 'popup-coop-unsafe-none',
    coop: 'unsafe-none',
    title: 'Popup sign-in, the provider without an opener policy',
    works: true,
    predicted:
      'The popup stays in the app’s browsing context group: the provider’s page has window.opener, posts the code to the app’s origin, and closes itself.',
  },
  {
    id: 'popup-coop-same-origin',
    coop: 'same-origin',
    title: 'Popup sign-in, the provider sending Cross-Origin-Opener-Policy: same-origin',
    works: false,
    predicted:
      'The popup navigates to a page whose policy differs from its opener’s and whose origin is not the opener’s: HTML puts it in a new browsing context group. Its window.opener is null, no message can come, and the app’s popup.closed reads true.',
  },
  {
    id: 'popup-coop-same-origin-allow-popups',
    coop: 'same-origin-allow-popups',
    title: 'Popup sign-in, the provider sending same-origin-allow-popups',
    works: false,
    predicted:
      'same-origin-allow-popups keeps the popups a page opens, not the page that opened it: the provider’s page was opened cross-origin, so it is cut off as with same-origin.',
  },
  {
    id: 'popup-coop-noopener-allow-popups',
    coop: 'noopener-allow-popups',
    title: 'Popup sign-in, the provider sending noopener-allow-popups',
    works: false,
    predicted:
      'noopener-allow-popups always starts a new browsing context group for the page itself: cut off. Firefox 153 does not know the value yet and takes it as unsafe-none.',
  },
  {
    id: 'popup-coop-report-only',
    coop: 'report-only',
    title: 'Popup sign-in, the provider sending same-origin as report-only',
    works: true,
    predicted:
      'Cross-Origin-Opener-Policy-Report-Only only reports what same-origin would break: the sign-in works, and the browser may say in the console that the policy would block window.opener.',
  },
];

for (const { id, coop, title, works, predicted } of POPUPS)
  signInExperiment({
    id,
    title,
    predicted: `${predicted} ${APP_SAYS[APP_COOP] ?? ''}`,
    manual: POPUP,
    async run() {
      const seen = await popupSignIn(providerOrThrow(), coop);
      const agrees = answersThisApp(works) ? seen.message : !seen.message && seen.closedBeforeAnswer;
      return {
        observed: { ...seen },
        summary: popupSaid(seen, coop),
        agrees,
        knownDifference: knownDifference('sign-in', id, ctx.engine, !agrees && seen.message, SIGN_IN_DIFFERENCES),
      };
    },
  });

/** Why one of the app's cookies did not come back, by its SameSite value, with the fix. */
function lostSaid(name: keyof typeof APP_COOKIES, mode: 'query' | 'form_post'): string {
  const sameSite = APP_COOKIES[name];
  if (sameSite === 'Strict')
    return `${name} (SameSite=Strict) stayed behind: a Strict cookie never goes with a request another site started, and the way back came from the provider’s site. Fix: keep the sign-in state in a Lax cookie (None; Secure with form_post).`;
  if (sameSite === 'Lax')
    return mode === 'form_post'
      ? `${name} (SameSite=Lax) stayed behind: across sites a Lax cookie goes only with a top-level GET, and form_post comes back as a POST. Fix: the state cookie SameSite=None; Secure, or the answer by query.`
      : `${name} (SameSite=Lax) stayed behind, although a cross-site top-level GET carries Lax cookies.`;
  return `${name} (SameSite=None; Secure) stayed behind: SameSite lets it go, so this browser kept no Secure cookie from this http:// page. Fix: serve the app over https.`;
}

function redirectSaid(seen: RedirectSeen, mode: 'query' | 'form_post'): string {
  if (seen.method === null) return 'The callback never said it was reached.';
  const came = seen.cookies.length === 0 ? 'none of the app’s cookies' : seen.cookies.join(' and ');
  const lost = (Object.keys(APP_COOKIES) as (keyof typeof APP_COOKIES)[])
    .filter((name) => !seen.cookies.includes(name))
    .map((name) => ` ${lostSaid(name, mode)}`);
  return `The provider’s answer reached the app by ${seen.method}, with ${came}.${lost.join('')}`;
}

const REDIRECTS: { id: string; mode: 'query' | 'form_post'; title: string; cookies: string[]; predicted: string }[] = [
  {
    id: 'redirect-query',
    mode: 'query',
    title: 'Redirect sign-in, back by a query (GET): which of the app’s cookies come',
    cookies: ['app_lax', 'app_none'],
    predicted:
      'The way back is a top-level GET navigation that came through the provider’s site: a cross-site request. SameSite=Lax cookies go with a top-level GET, Strict ones never with a cross-site one, None ones always: app_lax and app_none. Chromium judges the navigation by who started it (this page), so it sends app_strict too.',
  },
  {
    id: 'redirect-form-post',
    mode: 'form_post',
    title: 'Redirect sign-in, back by a posted form (form_post): which of the app’s cookies come',
    cookies: ['app_none'],
    predicted:
      'The way back is a cross-site top-level POST: Lax cookies go only with safe methods, so only app_none comes. An app that keeps its sign-in state in a Lax cookie loses it here. Fix: that one cookie SameSite=None; Secure, or answer by query.',
  },
];

for (const { id, mode, title, cookies, predicted } of REDIRECTS)
  signInExperiment({
    id,
    title,
    predicted,
    manual: POPUP,
    async run() {
      const seen = await redirectSignIn(providerOrThrow(), mode);
      const agrees = seen.method !== null && seen.cookies.join(',') === cookies.join(',');
      return {
        observed: { ...seen },
        summary: redirectSaid(seen, mode),
        agrees,
        knownDifference: knownDifference(
          'sign-in',
          id,
          ctx.engine,
          !agrees && seen.method !== null,
          SIGN_IN_DIFFERENCES,
        ),
      };
    },
  });

function tokenSaid(seen: TokenSeen): string {
  if (seen.outcome === '200') return 'The provider’s cookie went with the call, and the app read a token.';
  if (seen.outcome === '401')
    return 'The call arrived without the provider’s cookie (401): this browser does not send a cookie of another site from this page (third-party cookies blocked or partitioned). Fix: a token from the code (redirect or popup), not from a cookie; or the Storage Access API.';
  return `fetch rejected with ${seen.outcome}: the answer said Access-Control-Allow-Origin: *, which a credentialed request may never read. Fix: name the origin and send Access-Control-Allow-Credentials: true.`;
}

signInExperiment({
  id: 'token-credentialed',
  title: 'A token from the provider’s cookie: a credentialed call to the provider',
  predicted:
    'CORS allows the read (the app’s origin, with credentials). Whether the provider’s cookie goes is each browser’s third-party cookie policy, not CORS: Firefox partitions it by top-level site (Total Cookie Protection), so the cookie set in the popup is not this page’s; Safari blocks it; a fresh Chromium profile here blocks it by its setting. Then the call arrives without it: 401. Where a browser allows third-party cookies, a token: 200.',
  manual: POPUP,
  async run() {
    const seen = await credentialedToken(providerOrThrow(), 'origin');
    return {
      observed: { ...seen },
      summary: tokenSaid(seen),
      agrees: seen.outcome === '200' || seen.outcome === '401',
    };
  },
});

signInExperiment({
  id: 'token-wildcard',
  title: 'The same call answered with Access-Control-Allow-Origin: *',
  predicted:
    'A request with credentials may read an answer only if it names the origin and says Access-Control-Allow-Credentials: true. * is refused: TypeError, in every engine, whatever the cookie did.',
  manual: POPUP,
  async run() {
    const seen = await credentialedToken(providerOrThrow(), 'star');
    return { observed: { ...seen }, summary: tokenSaid(seen), agrees: seen.outcome === 'TypeError' };
  },
});

/** Why the provider's cookie did not come to its frame, and what to do. */
const FRAME_WHY: Record<'session' | 'partitioned', string> = {
  session:
    'third-party cookies are blocked or partitioned here. Fix: the frame asks for storage access (document.requestStorageAccess(), after a click in the frame), or the app signs in top-level (a popup or a redirect) and keeps the token, not the cookie.',
  partitioned:
    'a partitioned cookie comes only under the top-level site it was set under, and only where the browser kept it: it keeps an embedded state per site, never across sites.',
};

function frameSaid(seen: FrameSeen, cookie: 'session' | 'partitioned'): string {
  if (seen.silent) return 'The provider’s frame said nothing: it did not load.';
  const access =
    seen.storageAccess === 'absent' ? 'has no Storage Access API' : `hasStorageAccess(): ${String(seen.storageAccess)}`;
  return seen[cookie]
    ? `The provider’s ${cookie} cookie came with the framed request (${access}).`
    : `The provider’s ${cookie} cookie did not come with the framed request (${access}): ${FRAME_WHY[cookie]}`;
}

signInExperiment({
  id: 'frame-third-party-cookie',
  title: 'Embedded sign-in: the provider in a frame, with the cookie it set as a top-level site',
  predicted:
    'Signed in first in a popup, where the provider was the top-level site; then framed by this page, its cookie is a third-party cookie. Firefox keeps it in the provider’s own partition, not this page’s; Safari blocks it; this Chromium profile blocks it by its setting: it does not come, and the frame has no storage access until it asks (requestStorageAccess, after a click in the frame). This is why a silent refresh in a hidden frame fails.',
  manual: POPUP,
  async run() {
    const seen = await framedSignIn(providerOrThrow(), 'third-party');
    return { observed: { ...seen }, summary: frameSaid(seen, 'session'), agrees: seen.session === false };
  },
});

signInExperiment({
  id: 'frame-partitioned-cookie',
  title: 'A partitioned cookie (CHIPS): set in the frame, back in the next frame on this page',
  predicted:
    'A cookie the framed provider sets with Partitioned is kept under this page’s site as the top-level one (CHIPS): the next frame of the provider on this page carries it, whatever the third-party cookie setting (Chromium, Firefox). It would not go to the provider framed by another site. A browser may refuse to keep it: WebKit here keeps none, and the next frame comes without it.',
  async run() {
    const seen = await framedSignIn(providerOrThrow(), 'partitioned');
    const kept = ctx.engine !== 'webkit';
    return { observed: { ...seen }, summary: frameSaid(seen, 'partitioned'), agrees: seen.partitioned === kept };
  },
});

signInExperiment({
  id: 'frame-partitioned-elsewhere',
  title: 'The same partitioned cookie, with the provider framed by another site',
  predicted:
    'CHIPS keys a partitioned cookie by the top-level site it was set under. The frame here sets it; then this page opens on its other origin (another site) in a window of its own and frames the provider there: the cookie belongs to this page’s partition, not that one, so it does not come (Firefox keys its partitions the same way; WebKit kept none to begin with). A partitioned cookie cannot follow a user from site to site: it keeps an embedded sign-in per site, and never across them.',
  manual: POPUP,
  async run() {
    const elsewhere = currentSite().other;
    if (elsewhere === null) throw new Error('this server has no other origin: the page needs another site to open on');
    const seen = await partitionedElsewhere(providerOrThrow(), elsewhere);
    const summary = seen.silent
      ? `No word came from this page on ${elsewhere}: the window did not open, or it lost its opener (an opener policy on this page cuts it).`
      : `On ${elsewhere}: ${frameSaid(seen, 'partitioned')}`;
    return { observed: { ...seen }, summary, agrees: seen.partitioned === false };
  },
});

/** What the frame's request for storage access came to, and what to do where it was refused. */
function accessSaid(seen: AccessSeen): string {
  if (seen.silent) return 'The provider’s frame said nothing: it did not load.';
  if (seen.noClick)
    return 'Nobody clicked the button in the provider’s frame within a minute: only a click inside the frame may ask for storage access.';
  const first = `At first the provider’s session cookie ${seen.session ? 'came' : 'did not come'} with the frame.`;
  if (seen.access === 'absent')
    return `${first} This browser has no document.requestStorageAccess(); the frame’s call got ${seen.token}. Fix: sign in top-level and keep the token.`;
  if (seen.access !== 'granted')
    return `${first} document.requestStorageAccess() rejected with ${seen.access}: the browser did not grant it (the user said no, or it would not ask); the frame’s call got ${seen.token}. Fix: sign in top-level (a popup or a redirect) and keep the token.`;
  return seen.token === '200'
    ? `${first} After the click, storage access was granted, and the frame’s own call carried the cookie it had set as a top-level site: a token (200).`
    : `${first} Storage access was granted, yet the frame’s own call got ${seen.token}: the browser sent no cookie of the provider’s even so (WebKit keeps no Secure cookie set over http://). Fix: serve the provider over https, or sign in top-level (a popup or a redirect) and keep the token.`;
}

signInExperiment({
  id: 'frame-storage-access',
  title: 'Storage access, asked for by the provider’s frame after a click in it',
  predicted:
    'The frame first comes without the provider’s cookie (a third party, as above). A click on the provider’s own button inside the frame calls document.requestStorageAccess(), which needs that click; the browser asks the user (in the tests, the driver answers Allow, as a person would). Once granted, the frame’s requests with credentials carry the cookie the provider set as a top-level site: its token call gets 200, and Chromium and Firefox say so in the request (Sec-Fetch-Storage-Access: active).',
  manual: 'after Run, click the button inside the provider’s frame, and allow storage access if the browser asks',
  async run() {
    const seen = await storageAccessSignIn(providerOrThrow(), byId('frame-storage-access'));
    const agrees = seen.session === false && seen.access === 'granted' && seen.token === '200';
    return {
      observed: { ...seen },
      summary: accessSaid(seen),
      agrees,
      knownDifference: knownDifference(
        'sign-in',
        'frame-storage-access',
        ctx.engine,
        !agrees && seen.access !== undefined,
        SIGN_IN_DIFFERENCES,
      ),
    };
  },
});
