import escapeHtml from 'escape-html';
import { LAB_IDP_CHANNEL, LAB_IDP_PATHS } from '@origin-lab/contract/lab-idp';

/**
 * The provider's three pages: its sign-in form, and the two answers that are pages rather than a
 * redirect (a message to the window that opened the popup, a form posted back to the app). Every
 * value put in them has been checked (idp-request.ts) and is escaped again here; a value in a
 * script is JSON with `<` escaped, so it cannot end the script.
 */

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escapeHtml(title)}</title><body style="font-family:system-ui;max-width:32rem;margin:2rem auto;padding:0 1rem">${body}</body></html>\n`;

const scriptValue = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The sign-in form: one button, the authorize query carried back in a hidden field. */
export function signInForm(authorizeQuery: string, appOrigin: string): string {
  return page(
    'Sign in to the lab provider',
    `<h1>The lab's identity provider</h1>
<p><strong>${escapeHtml(appOrigin)}</strong> asks you to sign in.</p>
<form method="post" action="${LAB_IDP_PATHS.signIn}">
<input type="hidden" name="authorize" value="${escapeHtml(authorizeQuery)}">
<button type="submit">Sign in as a student</button>
</form>`,
  );
}

/**
 * web_message: the code and state posted to window.opener, only to the app's origin. With no
 * opener (Cross-Origin-Opener-Policy cut it) the page says so and stays open: nobody can hear it.
 */
export function webMessageAnswer(appOrigin: string, response: { code: string; state: string }): string {
  return page(
    'Signed in',
    `<h1>Signed in</h1><p id="said">Answering the app&hellip;</p>
<script>
const said = document.getElementById('said');
if (window.opener) {
  window.opener.postMessage({ type: 'authorization_response', response: ${scriptValue(response)} }, ${scriptValue(appOrigin)});
  said.textContent = 'Answer posted to the window that opened this one; closing.';
  setTimeout(() => window.close(), 300);
} else {
  said.textContent = 'window.opener is null: the app cannot be answered (a Cross-Origin-Opener-Policy cut this popup off from it).';
}
</script>`,
  );
}

/** form_post: the code and state posted to the app by a form that sends itself (a cross-site POST). */
export function formPostAnswer(redirectUri: string, response: { code: string; state: string }): string {
  return page(
    'Signed in',
    `<h1>Signed in</h1><p>Sending you back to the app&hellip;</p>
<form method="post" action="${escapeHtml(redirectUri)}">
<input type="hidden" name="code" value="${escapeHtml(response.code)}">
<input type="hidden" name="state" value="${escapeHtml(response.state)}">
<noscript><button type="submit">Continue</button></noscript>
</form>
<script>document.forms[0].submit();</script>`,
  );
}

/** What the app's callback heard: the method, the state, whether a code came, the names of the cookies that came. */
export interface CallbackHeard {
  method: string;
  state: string;
  code: boolean;
  cookies: string[];
}

/** The app's callback page: what came, shown, and told to the app's other pages on LAB_IDP_CHANNEL. */
export function callbackPage(heard: CallbackHeard): string {
  const cookies = heard.cookies.length === 0 ? 'none' : heard.cookies.map(escapeHtml).join(', ');
  return page(
    'Back at the app',
    `<h1>Back at the app</h1>
<p>The provider's answer came by ${escapeHtml(heard.method)}${heard.code ? ', with a code' : ', without a code'}.</p>
<p>Cookies of the app that came with it: <strong id="cookies">${cookies}</strong></p>
<script>
const heard = ${scriptValue(heard)};
const channel = new BroadcastChannel(${scriptValue(LAB_IDP_CHANNEL)});
channel.postMessage({ type: 'sign-in-callback', ...heard });
channel.close();
</script>`,
  );
}

/** What the provider's frame heard and could tell: its cookies that came, and its storage access. */
export interface FrameHeard {
  session: boolean;
  partitioned: boolean;
}

/**
 * The provider's page in a frame of the app: which of its cookies came with the frame's request,
 * and whether it has storage access (document.hasStorageAccess, where the browser has it), told
 * to the app's window (its origin only). With ask, a button asks for storage access
 * (document.requestStorageAccess, which needs the click), then calls the token address on its own
 * origin with credentials, tagged as the frame was, and tells the app both answers.
 */
export function framePage(appOrigin: string, heard: FrameHeard, ask = false): string {
  const app = scriptValue(appOrigin);
  return page(
    'The provider in a frame',
    `<p id="heard">The provider's cookies that came: session ${heard.session ? 'yes' : 'no'}, partitioned ${heard.partitioned ? 'yes' : 'no'}.</p>
${ask ? '<button type="button" id="ask-access">Continue as the student signed in here (asks for storage access)</button>\n<p id="access" aria-live="polite"></p>' : ''}
<script>
const heard = ${scriptValue(heard)};
const has = typeof document.hasStorageAccess === 'function' ? document.hasStorageAccess() : Promise.resolve('absent');
has.then((storageAccess) => parent.postMessage({ type: 'idp-frame', ...heard, storageAccess }, ${app}),
  () => parent.postMessage({ type: 'idp-frame', ...heard, storageAccess: 'error' }, ${app}));
${ask ? askScript(app) : ''}
</script>`,
  );
}

/** The frame's button: storage access asked for, then the token call on its own origin, both told to the app. */
const askScript = (app: string) => `document.getElementById('ask-access').addEventListener('click', async () => {
  const said = document.getElementById('access');
  said.textContent = 'Asking this browser for storage access…';
  let access = 'absent';
  if (typeof document.requestStorageAccess === 'function')
    access = await document.requestStorageAccess().then(() => 'granted', (err) => (err && err.name) || 'rejected');
  const tags = new URLSearchParams(location.search);
  for (const name of ['app', 'access', 'set']) tags.delete(name);
  let token;
  try {
    const answer = await fetch('${LAB_IDP_PATHS.token}?' + tags, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=session',
    });
    token = String(answer.status);
  } catch (err) {
    token = (err && err.name) || 'error';
  }
  said.textContent = 'Storage access: ' + access + '; the token call: ' + token + '.';
  parent.postMessage({ type: 'idp-frame-access', access, token }, ${app});
});`;
