import type { LabCorsPolicy, LabCorsScenario, LabHeaderList, LabPreflightStatus } from '@origin-lab/contract';
import { byId, h, marker } from '../frame/dom.js';
import { setupPage } from '../frame/page.js';
import { attempt } from '../probes/attempt.js';
import { markedUrl, serverEvidence, type ServerEvidence } from '../probes/journal.js';
import { sendXhr } from '../probes/xhr.js';
import { AUTHORIZATION_UNDER_WILDCARD, predict, type PlannedRequest, type Prediction } from '../rules/cors-predict.js';
import { explain } from '../server-view/why-refused.js';
import { PRESETS } from '../playground/presets.js';

const ctx = setupPage();
const form = byId<HTMLFormElement>('scenario');
const field = (name: string) =>
  form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** How long to wait for the server's entries of a request the page already has the outcome of. */
const EVIDENCE_WAIT_MS = 3_000;
/** The answer headers of /lab/cors whose visibility the prediction can name. */
const LAB_ANSWER_HEADERS = ['content-type', 'content-length', 'x-lab-extra', 'vary', 'set-cookie'];

// ---- The case <-> the page's address --------------------------------------------------------

/** Every field's value, checkboxes as on/off: the case as the address's fragment. */
function caseParams(): URLSearchParams {
  const params = new URLSearchParams();
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    if (!element.name) continue;
    params.set(element.name, element.type === 'checkbox' ? (element.checked ? 'on' : 'off') : element.value);
  }
  return params;
}

/** Sets the fields the fragment names; the others keep their defaults. */
function fillForm(params: URLSearchParams): void {
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    const value = params.get(element.name);
    if (!element.name || value === null) continue;
    if (element.type === 'checkbox') element.checked = value === 'on';
    else element.value = value;
  }
}

function rememberCase(): void {
  const fragment = `#${caseParams().toString()}`;
  history.replaceState(null, '', fragment);
  byId<HTMLAnchorElement>('share').href = fragment;
}

// ---- What the form describes -------------------------------------------------------------

const headerList = (raw: string): LabHeaderList =>
  raw.trim() === '' ? null : raw.trim() === '*' ? '*' : raw.split(',').map((item) => item.trim());

function formPolicy(): LabCorsPolicy {
  return {
    allowOrigin: field('allow-origin').value as LabCorsPolicy['allowOrigin'],
    allowCredentials: (field('allow-credentials') as HTMLInputElement).checked,
    allowMethods: headerList(field('allow-methods').value),
    allowHeaders: headerList(field('allow-headers').value),
    exposeHeaders: headerList(field('expose-headers').value),
    maxAge: field('max-age').value.trim() === '' ? null : Number(field('max-age').value),
    varyOrigin: (field('vary') as HTMLInputElement).checked,
  };
}

function formScenario(): LabCorsScenario {
  const policy = formPolicy();
  return {
    preflight: policy,
    actual: policy,
    preflightStatus: Number(field('preflight-status').value) as LabPreflightStatus,
    extraHeader: field('extra-header').value === '' ? null : field('extra-header').value,
    cookie: field('cookie').value as LabCorsScenario['cookie'],
    cookieSecure: (field('cookie-secure') as HTMLInputElement).checked,
  };
}

/** The lab URL asking for the form's policy: only what differs from the lab's defaults. */
function labUrl(origin: string, scenario: LabCorsScenario): string {
  const policy = scenario.actual;
  const params = new URLSearchParams();
  const list = (value: LabHeaderList) => (value === '*' ? '*' : (value ?? []).join(','));
  if (policy.allowOrigin !== 'origin') params.set('allow-origin', policy.allowOrigin);
  if (policy.allowCredentials) params.set('allow-credentials', 'true');
  if (policy.allowMethods !== null) params.set('allow-methods', list(policy.allowMethods));
  if (policy.allowHeaders !== null) params.set('allow-headers', list(policy.allowHeaders));
  if (policy.exposeHeaders !== null) params.set('expose-headers', list(policy.exposeHeaders));
  if (policy.maxAge !== null) params.set('max-age', String(policy.maxAge));
  if (!policy.varyOrigin) params.set('vary', 'off');
  if (scenario.preflightStatus !== 204) params.set('preflight-status', String(scenario.preflightStatus));
  if (scenario.extraHeader !== null) params.set('extra-header', scenario.extraHeader);
  if (scenario.cookie !== 'off') params.set('cookie', scenario.cookie);
  if (scenario.cookieSecure) params.set('cookie-secure', 'true');
  const query = params.toString();
  return `${origin}/lab/cors${query ? `?${query}` : ''}`;
}

function formHeaders(): [string, string][] {
  return field('headers')
    .value.split('\n')
    .map((line) => line.trim())
    .filter((line) => line.includes(':'))
    .map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]);
}

interface Body {
  value: BodyInit | null;
  /** The Content-Type the request carries for it, unless the page's headers set one. */
  contentType: string | null;
  /** Whether the page's code sets that Content-Type (a JSON string), rather than the browser. */
  setByPage?: boolean;
  forcedPreflight: string | null;
}

function formBody(): Body {
  const text = '{"hello":"lab"}';
  switch (field('body').value) {
    case 'string':
      return { value: 'hello lab', contentType: 'text/plain;charset=UTF-8', forcedPreflight: null };
    case 'urlencoded':
      return {
        value: new URLSearchParams({ hello: 'lab' }),
        contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
        forcedPreflight: null,
      };
    case 'formdata': {
      const data = new FormData();
      data.append('hello', 'lab');
      // The boundary is the browser's; any value of this type is safelisted.
      return { value: data, contentType: 'multipart/form-data; boundary=x', forcedPreflight: null };
    }
    case 'json':
      return { value: text, contentType: 'application/json', setByPage: true, forcedPreflight: null };
    case 'blob-json':
      return {
        value: new Blob([text], { type: 'application/json' }),
        contentType: 'application/json',
        forcedPreflight: null,
      };
    case 'blob':
      return { value: new Blob([text]), contentType: null, forcedPreflight: null };
    case 'stream':
      return {
        value: new Blob([text]).stream(),
        contentType: null,
        forcedPreflight: 'its body is a ReadableStream, which always preflights',
      };
    default:
      return { value: null, contentType: null, forcedPreflight: null };
  }
}

// ---- Sending and observing ------------------------------------------------------------------

interface Observed {
  /** Whether the page could read the answer. */
  readable: boolean;
  status: number | null;
  /** Header names script could read. */
  headers: string[];
  body: string;
  error: string | null;
}

/** Sends with the page's own headers (not the browser's Content-Type), as the form says: fetch or XHR. */
async function send(url: string, planned: PlannedRequest, headers: [string, string][], body: Body): Promise<Observed> {
  const { method, credentials } = planned;
  if (field('api').value === 'xhr') {
    const outcome = await sendXhr(method, url, {
      headers: Object.fromEntries(headers),
      withCredentials: credentials,
      body: body.value instanceof ReadableStream ? null : (body.value as XMLHttpRequestBodyInit | null),
    });
    const names = outcome.headers
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
    return {
      readable: outcome.status !== 0,
      status: outcome.status,
      headers: names,
      body: outcome.responseText.slice(0, 400),
      error: outcome.status === 0 ? `status 0, events: ${outcome.events.join(', ')}` : null,
    };
  }
  const result = await attempt(() =>
    fetch(url, {
      method,
      headers,
      credentials: credentials ? 'include' : 'same-origin',
      mode: planned.mode,
      body: body.value,
      ...(body.value instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  );
  if (!result.ok)
    return { readable: false, status: null, headers: [], body: '', error: `fetch rejected: ${result.error}` };
  const response = result.value;
  if (response.type === 'opaque')
    return {
      readable: false,
      status: 0,
      headers: [],
      body: '',
      error: 'an opaque answer (no-cors): status 0, nothing to read',
    };
  return {
    readable: true,
    status: response.status,
    headers: [...response.headers.keys()],
    body: (await response.text()).slice(0, 400),
    error: null,
  };
}

const li = (text: string, attrs: Record<string, string> = {}) => h('li', attrs, text);

function showPrediction(prediction: Prediction): void {
  byId('predicted').replaceChildren(
    li(
      prediction.preflight.sent
        ? `A preflight: ${prediction.preflight.why}.`
        : `No preflight: ${prediction.preflight.why}.`,
    ),
    ...(prediction.preflight.sent
      ? [
          li(
            prediction.preflight.passes
              ? 'The preflight passes.'
              : `The preflight fails: ${prediction.preflight.failure}.`,
          ),
        ]
      : []),
    li(prediction.sent ? 'The request reaches the server.' : 'The request is never sent.'),
    li(prediction.readable ? 'The page may read the answer.' : `The page may not read it: ${prediction.failure}.`),
    ...(prediction.visibleHeaders
      ? [li(`Headers script sees: ${prediction.visibleHeaders.join(', ') || 'none'}.`)]
      : []),
  );
}

function showObserved(observed: Observed): void {
  byId('observed').replaceChildren(
    observed.error ? li(observed.error) : li(`Status ${observed.status}.`),
    ...(observed.readable
      ? [li(`Headers script sees: ${observed.headers.join(', ') || 'none'}.`), li(`Body: ${observed.body}`)]
      : []),
  );
}

function showServer(evidence: ServerEvidence): void {
  const line = (what: string, entry: NonNullable<ServerEvidence['request']>) =>
    li(
      `${what}: ${entry.method} answered ${entry.status}, ${
        entry.cors
          ? Object.entries(entry.cors)
              .map(([n, v]) => `${n}: ${v}`)
              .join('; ')
          : 'no CORS headers'
      }.`,
    );
  byId('server-saw').replaceChildren(
    evidence.preflight ? line('The preflight', evidence.preflight) : li('No preflight arrived.'),
    evidence.request ? line('The request', evidence.request) : li('The request never arrived.'),
  );
}

/**
 * Where the engines, measured, differ from the spec (docs/decisions.md): what they do instead, or
 * null when this outcome is not one of them.
 */
function knownDifference(
  prediction: Prediction,
  seen: { preflight: boolean; sent: boolean; readable: boolean },
): string | null {
  // Measured on Chromium 156 and Firefox ESR 153: both let Authorization through under Allow-Headers: *.
  if (prediction.failure === AUTHORIZATION_UNDER_WILDCARD && seen.preflight && seen.sent && seen.readable)
    return `${ctx.engine} lets Authorization through under Access-Control-Allow-Headers: *, which the spec says must name it.`;
  return null;
}

async function run(): Promise<void> {
  rememberCase();
  const mark = marker('playground');
  const crossOrigin = field('target').value === 'other';
  const origin = crossOrigin ? ctx.other() : ctx.site.self;
  const scenario = formScenario();
  const url = markedUrl(labUrl(origin, scenario), mark);
  const written = formHeaders();
  const body = formBody();
  const method = field('method').value.trim();
  // The body's Content-Type, unless the page's headers already set one.
  const typed: [string, string][] =
    body.contentType && !written.some(([name]) => name.toLowerCase() === 'content-type')
      ? [...written, ['Content-Type', body.contentType]]
      : written;
  const planned: PlannedRequest = {
    method,
    headers: typed,
    credentials: field('credentials').value === 'include',
    mode: field('api').value === 'xhr' ? 'cors' : (field('mode').value as 'cors' | 'no-cors'),
    forcedPreflight: body.forcedPreflight,
    crossOrigin,
  };
  const prediction = predict(planned, scenario, LAB_ANSWER_HEADERS);
  byId('result-empty').hidden = true;
  showPrediction(prediction);
  byId('observed').replaceChildren(li('Sending\u2026'));
  const observed = await send(url, planned, body.setByPage ? typed : written, body);
  showObserved(observed);
  const evidence = await serverEvidence(ctx.journal, mark, prediction.sent ? EVIDENCE_WAIT_MS : 0);
  showServer(evidence);

  const explanation = explain(
    {
      pageOrigin: ctx.site.self,
      method,
      headers: planned.headers.map(([n]) => n),
      credentials: planned.credentials,
      read: observed.readable,
    },
    { preflight: evidence.preflight ?? undefined, actual: evidence.request ?? undefined },
  );
  byId('why').textContent = observed.readable
    ? 'The page could read the answer: every check passed.'
    : `${explanation.text}${explanation.handled ? ` The handler ran (status ${explanation.status}).` : ' The handler did not run.'}`;

  const seen = { preflight: evidence.preflight !== null, sent: evidence.request !== null, readable: observed.readable };
  const expected = { preflight: prediction.preflight.sent, sent: prediction.sent, readable: prediction.readable };
  const agrees =
    seen.preflight === expected.preflight && seen.sent === expected.sent && seen.readable === expected.readable;
  const known = agrees ? null : knownDifference(prediction, seen);
  const agreement = byId('agreement');
  agreement.dataset.state = agrees ? 'agree' : known ? 'known-difference' : 'disagree';
  agreement.dataset.observed = JSON.stringify({
    predicted: expected,
    observed: seen,
    status: observed.status,
    rule: explanation.rule,
  });
  agreement.textContent = agrees
    ? '\u2714 The browser did what the spec predicts.'
    : known
      ? `\u2248 A known engine difference: ${known}`
      : `\u2718 The browser differs from the prediction: predicted ${JSON.stringify(expected)}, observed ${JSON.stringify(seen)}.`;
}

// ---- Wiring -----------------------------------------------------------------------------------

const presetSelect = byId<HTMLSelectElement>('preset');
presetSelect.append(...PRESETS.map((preset, index) => h('option', { value: String(index) }, preset.name)));
presetSelect.addEventListener('change', () => {
  const preset = PRESETS[Number(presetSelect.value)];
  if (!preset) return;
  form.reset();
  fillForm(new URLSearchParams(preset.fragment));
  rememberCase();
});
form.addEventListener('change', rememberCase);
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const button = byId<HTMLButtonElement>('send');
  button.disabled = true;
  void run()
    .catch((err: unknown) => {
      // e.g. no other origin configured for this host: say so where the result would be.
      byId('result-empty').hidden = false;
      byId('result-empty').textContent = `Could not send: ${(err as Error).message}`;
    })
    .finally(() => (button.disabled = false));
});
/** A link to another case opened on this page (only the fragment changed): the form follows it. */
window.addEventListener('hashchange', () => {
  form.reset();
  fillForm(new URLSearchParams(location.hash.slice(1)));
  rememberCase();
});
fillForm(new URLSearchParams(location.hash.slice(1)));
rememberCase();
