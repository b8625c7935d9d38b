// The three ways the sign-in page signs in with the lab's identity provider, on the third name
// (cross-site to this page): a popup answered by a message to its opener, a redirect back (by a
// query or a posted form) to the app's callback, which says which of the app's cookies came, and
// a credentialed call to the provider's token address. Each returns what the page could observe.
import {
  LAB_IDP_CALLBACK_PATH,
  LAB_IDP_CHANNEL,
  LAB_IDP_PATHS,
  labIdpAuthorizeUrl,
  type LabIdpSettings,
} from '@origin-lab/contract/lab-idp';
import { marker, sleep } from '../frame/dom.js';
import { VISITOR_PARAMETER, visitorToken } from '../server-view/visitor.js';
import { markedUrl } from '../probes/journal.js';

/**
 * How long an answer may take to come back (a popup opening, the provider answering). Each wait
 * ends at the first sign (a message, a closed popup, the callback's word), so the bound is paid
 * only when nothing comes; a loaded machine took more than 8 s to open WebKit's popup.
 */
export const ANSWER_WAIT_MS = 20_000;

/** A fresh state for one sign-in: what the provider must send back unchanged. */
const newState = () => marker('state').replace(/[^A-Za-z0-9._~-]/g, '-');

/** The marks given out since the last takeMarks(): what the journal filed this page's sign-ins under. */
let marksGiven: string[] = [];

/** The marks of the sign-ins since the last call, to find their requests in the journal. */
export function takeMarks(): string[] {
  const marks = marksGiven;
  marksGiven = [];
  return marks;
}

/**
 * url with this visitor's token and a mark, so the journal files the request under this visitor:
 * the page's own tagging (server-view/visitor.ts) covers /api/ and the labs, not the provider's
 * pages or the app's callback. The mark comes first: the journal keeps a query's first 256
 * characters, and an authorize address (its redirect_uri, state and switches) is longer.
 */
function tagged(url: URL, mark: string): string {
  const marked = new URL(markedUrl(`${url.origin}${url.pathname}`, mark));
  marked.searchParams.set(VISITOR_PARAMETER, visitorToken);
  for (const [name, value] of url.searchParams) if (name !== VISITOR_PARAMETER) marked.searchParams.append(name, value);
  if (!marksGiven.includes(mark)) marksGiven.push(mark);
  return marked.href;
}

/** The app's callback on this origin, tagged for the journal. */
const callbackUrl = (mark: string) => tagged(new URL(LAB_IDP_CALLBACK_PATH, location.origin), mark);

/** The authorize address on the provider, tagged for the journal as well. */
function authorizeUrl(provider: string, state: string, mark: string, settings: Partial<LabIdpSettings>): string {
  return tagged(new URL(labIdpAuthorizeUrl(provider, { redirectUri: callbackUrl(mark), state }, settings)), mark);
}

const openPopup = (url: string) => window.open(url, '_blank', 'popup,width=480,height=640');

/** What the app saw of a popup sign-in answered by web_message. */
export interface PopupSeen {
  /** The provider's message with the code arrived (posted to window.opener). */
  message: boolean;
  /** popup.closed read true before any answer: the app lost its handle on the popup. */
  closedBeforeAnswer: boolean;
  /** The popup could not be opened at all. */
  blocked?: true;
}

/**
 * A popup sign-in: the provider's page answers by posting the code to window.opener. The
 * provider's Cross-Origin-Opener-Policy is coop; the session cookie is SameSite=None; Secure, so
 * that later calls can carry it.
 */
export async function popupSignIn(provider: string, coop: LabIdpSettings['coop']): Promise<PopupSeen> {
  const state = newState();
  const url = authorizeUrl(provider, state, marker('popup'), {
    response_mode: 'web_message',
    coop,
    sign_in: 'auto',
    same_site: 'none',
  });
  let message = false;
  let popup: Window | null = null;
  const listener = (event: MessageEvent) => {
    const data = event.data as { type?: string; response?: { state?: string } } | null;
    if (event.origin !== provider || data?.type !== 'authorization_response' || data.response?.state !== state) return;
    message = true;
    // The app looks at its popup as the answer arrives, while the provider's page is surely still
    // there (it closes 300 ms after answering): the read of popup.closed that a report-only policy
    // reports happens at a known time, not wherever the polling below happens to fall.
    void popup?.closed;
  };
  addEventListener('message', listener);
  popup = openPopup(url);
  try {
    if (popup === null) return { message: false, closedBeforeAnswer: false, blocked: true };
    let closedBeforeAnswer = false;
    const until = performance.now() + ANSWER_WAIT_MS;
    while (!message && performance.now() < until) {
      // The provider's page closes itself once it has answered; closed before that means cut off.
      if (popup.closed) {
        closedBeforeAnswer = true;
        break;
      }
      await sleep(100);
    }
    // A message already posted may still be queued: one more turn to hear it.
    await sleep(200);
    return { message, closedBeforeAnswer: closedBeforeAnswer && !message };
  } finally {
    removeEventListener('message', listener);
    if (popup && !popup.closed) popup.close();
  }
}

/** The app's cookies the redirect experiments set before signing in, one per SameSite value. */
export const APP_COOKIES = { app_lax: 'Lax', app_strict: 'Strict', app_none: 'None; Secure' } as const;

/** What the app's callback heard of a redirect back: the method and the app's cookies that came. */
export interface RedirectSeen {
  method: string | null;
  cookies: string[];
}

/**
 * A redirect sign-in in a popup (a top-level window, as a whole-page redirect is): the app's
 * three cookies set first (scoped to the callback), then the provider answers by a redirect
 * (query) or a posted form (form_post) to the callback, which tells this page on LAB_IDP_CHANNEL.
 */
export async function redirectSignIn(provider: string, mode: 'query' | 'form_post'): Promise<RedirectSeen> {
  for (const [name, sameSite] of Object.entries(APP_COOKIES))
    document.cookie = `${name}=1; Path=${LAB_IDP_CALLBACK_PATH}; Max-Age=300; SameSite=${sameSite}`;
  const state = newState();
  const channel = new BroadcastChannel(LAB_IDP_CHANNEL);
  const heard = new Promise<RedirectSeen>((resolve) => {
    channel.onmessage = (event: MessageEvent) => {
      const data = event.data as { state?: string; method?: string; cookies?: string[] };
      if (data.state === state)
        resolve({ method: data.method ?? null, cookies: (data.cookies ?? []).filter((name) => name in APP_COOKIES) });
    };
    setTimeout(() => resolve({ method: null, cookies: [] }), ANSWER_WAIT_MS);
  });
  const popup = openPopup(authorizeUrl(provider, state, marker('redirect'), { response_mode: mode, sign_in: 'auto' }));
  try {
    const seen = await heard;
    return { ...seen, cookies: [...seen.cookies].sort() };
  } finally {
    channel.close();
    popup?.close();
  }
}

/** What a credentialed call to the token address gave the page. */
export interface TokenSeen {
  outcome: string;
  /** The token's user could be read: the provider's session cookie went with the call. */
  signedIn?: boolean;
}

/**
 * Signs in (a popup, so the provider's SameSite=None cookie is set on its own site), then asks
 * the token address for a token with that cookie: fetch with credentials included, from this
 * page, to the provider on another site. allowOrigin: how the provider answers CORS.
 */
export async function credentialedToken(provider: string, allowOrigin: 'origin' | 'star'): Promise<TokenSeen> {
  await popupSignIn(provider, 'unsafe-none');
  const url = new URL(LAB_IDP_PATHS.token, provider);
  if (allowOrigin === 'star') url.searchParams.set('allow_origin', 'star');
  try {
    const answer = await fetch(tagged(url, marker('token')), {
      method: 'POST',
      credentials: 'include',
      body: new URLSearchParams({ grant_type: 'session' }),
    });
    const body = (await answer.json()) as { user?: string };
    return { outcome: String(answer.status), signedIn: typeof body.user === 'string' };
  } catch (err) {
    return { outcome: (err as Error).name };
  }
}

/** What the provider's page in a frame of this page heard: its cookies that came, and its storage access. */
export interface FrameSeen {
  session?: boolean;
  partitioned?: boolean;
  storageAccess?: boolean | string;
  /** No word from the frame within the wait. */
  silent?: true;
}

/** The first message of type that a window of origin posts to this page, or null once waitMs are over. */
function messageFrom(origin: string, type: string, waitMs = ANSWER_WAIT_MS): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const done = (data: Record<string, unknown> | null) => {
      removeEventListener('message', listener);
      clearTimeout(timer);
      resolve(data);
    };
    const listener = (event: MessageEvent) => {
      const data = event.data as Record<string, unknown> | null;
      if (event.origin === origin && data?.type === type) done(data);
    };
    addEventListener('message', listener);
    const timer = setTimeout(() => done(null), waitMs);
  });
}

/** What a window of origin tells this page in a message of type, or silent once the wait is over. */
async function toldBy(origin: string, type: string): Promise<FrameSeen> {
  const data = await messageFrom(origin, type);
  if (data === null || data.silent) return { silent: true };
  return {
    session: data.session as boolean,
    partitioned: data.partitioned as boolean,
    storageAccess: data.storageAccess as boolean | string,
  };
}

/**
 * The provider's frame page for this app with these switches, tagged for the journal: an iframe
 * not yet in the page (it loads once appended, so a listener set up before hears it).
 */
function providerIframe(provider: string, switches: Record<string, string>, title: string): HTMLIFrameElement {
  const url = new URL(LAB_IDP_PATHS.frame, provider);
  url.searchParams.set('app', location.origin);
  for (const [name, value] of Object.entries(switches)) url.searchParams.set(name, value);
  const frame = document.createElement('iframe');
  frame.title = title;
  frame.src = tagged(url, marker('frame'));
  return frame;
}

/** Frames the provider's frame page (setting its partitioned cookie when asked) and waits for what it tells. */
async function providerFrame(provider: string, setPartitioned: boolean): Promise<FrameSeen> {
  const switches: Record<string, string> = setPartitioned ? { set: 'partitioned' } : {};
  const frame = providerIframe(provider, switches, 'The identity provider, embedded');
  frame.hidden = true;
  const told = toldBy(provider, 'idp-frame');
  document.body.append(frame);
  try {
    return await told;
  } finally {
    frame.remove();
  }
}

/** What the provider's frame saw when it asked for storage access: its cookies first, then the two answers. */
export interface AccessSeen extends FrameSeen {
  /** document.requestStorageAccess(): granted, or the name it rejected with (absent where the browser has none). */
  access?: string;
  /** The frame's token call with credentials, after the answer: its status, or the name fetch rejected with. */
  token?: string;
  /** Nobody clicked the frame's button within the wait. */
  noClick?: true;
}

/** How long a person has to click the button in the provider's frame. */
const CLICK_WAIT_MS = 60_000;

/**
 * Storage access, asked for by the provider's frame: signed in first in a popup (so the provider
 * was a top-level site with a session), then framed, visibly, in host, with a button of the
 * provider's own that calls document.requestStorageAccess() (only a click inside the frame can),
 * then calls its token address with credentials and tells this page both answers.
 */
export async function storageAccessSignIn(provider: string, host: HTMLElement): Promise<AccessSeen> {
  await popupSignIn(provider, 'unsafe-none');
  // The frame's token call carries the frame's own tags: both are filed under its mark.
  const frame = providerIframe(
    provider,
    { access: 'ask' },
    'The identity provider, embedded: its button asks for storage access',
  );
  frame.className = 'provider-frame';
  // Styled here, not in site.css, which every page loads.
  Object.assign(frame.style, { display: 'block', width: '100%', height: '10rem', border: '2px dashed #666' });
  const loaded = toldBy(provider, 'idp-frame');
  const asked = messageFrom(provider, 'idp-frame-access', CLICK_WAIT_MS);
  host.append(frame);
  try {
    const before = await loaded;
    if (before.silent) return before;
    frame.dataset.told = 'true'; // loaded, its button ready: what a test waits for before answering for the user
    const after = await asked;
    if (after === null) return { ...before, noClick: true };
    return { ...before, access: String(after.access), token: String(after.token) };
  } finally {
    frame.remove();
  }
}

/**
 * An embedded (or silent) sign-in: the provider in a frame of this page. thirdParty: signed in
 * first in a popup (the provider's session cookie set while it was the top-level site), then
 * framed: does that cookie come? partitioned: a frame sets a Partitioned cookie, then a second
 * frame on this page: does it come?
 */
export async function framedSignIn(provider: string, kind: 'third-party' | 'partitioned'): Promise<FrameSeen> {
  if (kind === 'third-party') {
    await popupSignIn(provider, 'unsafe-none');
    return providerFrame(provider, false);
  }
  const first = await providerFrame(provider, true);
  return first.silent ? first : providerFrame(provider, false);
}

/** Asks the sign-in page, opened on the app's other origin, to frame the provider there and tell its opener (the value). */
const ELSEWHERE_PARAMETER = 'frame-for';
const ELSEWHERE_MESSAGE = 'idp-frame-elsewhere';

/**
 * The partitioned cookie under another top-level site: a frame here sets it, then the sign-in
 * page opens on the app's other origin (another site) in a window of its own, frames the provider
 * there and tells this page what came (frameForOpener).
 */
export async function partitionedElsewhere(provider: string, elsewhere: string): Promise<FrameSeen> {
  // Opened at once, while the click's user activation lasts; sent on once the cookie is set.
  const popup = openPopup('about:blank');
  try {
    if (popup === null) return { silent: true };
    const first = await providerFrame(provider, true);
    if (first.silent) return first;
    const url = new URL('/sign-in.html', elsewhere);
    url.searchParams.set(ELSEWHERE_PARAMETER, location.origin);
    const told = toldBy(elsewhere, ELSEWHERE_MESSAGE);
    popup.location.href = url.href;
    return await told;
  } finally {
    popup?.close();
  }
}

/**
 * On the page partitionedElsewhere opened: frames the provider and tells the opener what came.
 * Only the app's other origin (the opener's, when this page is the other site) is ever told.
 */
export async function frameForOpener(provider: string | null, other: string | null): Promise<void> {
  const openerOrigin = new URLSearchParams(location.search).get(ELSEWHERE_PARAMETER);
  if (openerOrigin === null || openerOrigin !== other || provider === null || opener === null) return;
  const seen = await providerFrame(provider, false);
  (opener as Window).postMessage({ type: ELSEWHERE_MESSAGE, ...seen }, openerOrigin);
}
