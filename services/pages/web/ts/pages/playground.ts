import type {
  EngineOutcome,
  EngineRecord,
  LabCorsPolicy,
  LabCorsReflection,
  LabCorsScenario,
  LabHeaderList,
  LabPreflightStatus,
} from '@origin-lab/contract';
import { byId, h, marker } from '../frame/dom.js';
import { setupPage } from '../frame/page.js';
import { attempt } from '../probes/attempt.js';
import { markedUrl, serverEvidence, type ServerEvidence } from '../probes/journal.js';
import { sendXhr } from '../probes/xhr.js';
import {
  AUTHORIZATION_UNDER_WILDCARD,
  onlyOverSafelistedTotal,
  predict,
  type PlannedRequest,
  type Prediction,
} from '../rules/cors-predict.js';
import { explain } from '../server-view/why-refused.js';
import { PRESETS, type Preset } from '../playground/presets.js';
import { canonicalCase, expandCase, PREFLIGHT_PREFIX, SPLIT_FIELD } from '../playground/case-fragment.js';
import { ENGINE_LABELS, loadEngineRecords, recordsForScheme } from '../engines/compare.js';
import { outcomePhrases } from '../engines/outcome-view.js';

const ctx = setupPage();
const form = byId<HTMLFormElement>('scenario');
const field = (name: string) =>
  form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** How long to wait for the server's entries of a request the page already has the outcome of. */
const EVIDENCE_WAIT_MS = 3_000;
/** The answer headers of /lab/cors whose visibility the prediction can name. */
const LAB_ANSWER_HEADERS = ['content-type', 'content-length', 'x-lab-extra', 'vary', 'set-cookie'];

// ---- The case <-> the page's address --------------------------------------------------------

/** Every field's value, checkboxes as on/off. */
function formValues(): URLSearchParams {
  const values = new URLSearchParams();
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    if (!element.name) continue;
    values.set(element.name, element.type === 'checkbox' ? (element.checked ? 'on' : 'off') : element.value);
  }
  return values;
}

/** The form as the page loads it: what a fragment leaves out. */
const DEFAULTS = formValues();

/** The case as the address's fragment: what differs from the defaults. */
const caseFragment = () => canonicalCase(formValues(), DEFAULTS);

/** The preflight's own fields are live only while "the preflight answers differently" is on. */
function syncSplit(): void {
  const split = (field(SPLIT_FIELD) as HTMLInputElement).checked;
  for (const element of Array.from(form.elements) as HTMLInputElement[])
    if (element.name.startsWith(PREFLIGHT_PREFIX)) element.disabled = !split;
}

/** Sets every field to the case the fragment names. */
function fillForm(fragment: URLSearchParams): void {
  const values = expandCase(fragment, DEFAULTS);
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    const value = values.get(element.name);
    if (!element.name || value === null) continue;
    if (element.type === 'checkbox') element.checked = value === 'on';
    else element.value = value;
  }
  syncSplit();
}

function rememberCase(): void {
  const fragment = `#${caseFragment()}`;
  history.replaceState(null, '', fragment);
  byId<HTMLAnchorElement>('share').href = fragment;
  void showEngineRow();
}

// ---- What the form describes -------------------------------------------------------------

const headerList = (raw: string): LabHeaderList =>
  raw.trim() === '' ? null : raw.trim() === '*' ? '*' : raw.split(',').map((item) => item.trim());

/** The policy the fields under prefix describe ('' for the answer's, 'preflight.' for the preflight's own). */
function formPolicy(prefix: string): LabCorsPolicy {
  const named = (name: string) => field(`${prefix}${name}`);
  return {
    allowOrigin: named('allow-origin').value as LabCorsPolicy['allowOrigin'],
    allowCredentials: (named('allow-credentials') as HTMLInputElement).checked,
    allowMethods: headerList(named('allow-methods').value),
    allowHeaders: headerList(named('allow-headers').value),
    // Only the answer's policy has these fields: script reads the answer, not the preflight.
    exposeHeaders: headerList(field('expose-headers').value),
    maxAge: named('max-age').value.trim() === '' ? null : Number(named('max-age').value),
    varyOrigin: (field('vary') as HTMLInputElement).checked,
  };
}

function formScenario(): LabCorsScenario {
  const actual = formPolicy('');
  return {
    preflight: (field(SPLIT_FIELD) as HTMLInputElement).checked ? formPolicy(PREFLIGHT_PREFIX) : actual,
    actual,
    preflightStatus: Number(field('preflight-status').value) as LabPreflightStatus,
    extraHeader: field('extra-header').value === '' ? null : field('extra-header').value,
    cookie: field('cookie').value as LabCorsScenario['cookie'],
    cookieSecure: (field('cookie-secure') as HTMLInputElement).checked,
  };
}

/** A policy as lab parameters: only what differs from the lab's defaults. */
function policyParameters(policy: LabCorsPolicy): Map<string, string> {
  const list = (value: LabHeaderList) => (value === '*' ? '*' : (value ?? []).join(','));
  const params = new Map<string, string>();
  if (policy.allowOrigin !== 'origin') params.set('allow-origin', policy.allowOrigin);
  if (policy.allowCredentials) params.set('allow-credentials', 'true');
  if (policy.allowMethods !== null) params.set('allow-methods', list(policy.allowMethods));
  if (policy.allowHeaders !== null) params.set('allow-headers', list(policy.allowHeaders));
  if (policy.exposeHeaders !== null) params.set('expose-headers', list(policy.exposeHeaders));
  if (policy.maxAge !== null) params.set('max-age', String(policy.maxAge));
  if (!policy.varyOrigin) params.set('vary', 'off');
  return params;
}

/**
 * The lab URL asking for the scenario: a parameter both requests share is written once; one that
 * differs is written per request (preflight., actual.); the lab's defaults are left out.
 */
function labUrl(origin: string, scenario: LabCorsScenario): string {
  const params = new URLSearchParams();
  const preflight = policyParameters(scenario.preflight);
  const actual = policyParameters(scenario.actual);
  for (const name of new Set([...preflight.keys(), ...actual.keys()])) {
    const [before, after] = [preflight.get(name), actual.get(name)];
    if (before === after) params.set(name, before as string);
    else {
      if (before !== undefined) params.set(`${PREFLIGHT_PREFIX}${name}`, before);
      if (after !== undefined) params.set(`actual.${name}`, after);
    }
  }
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
      headers,
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
  planned: PlannedRequest,
  prediction: Prediction,
  seen: { preflight: boolean; sent: boolean; readable: boolean },
): string | null {
  // Measured on Chromium 156 and Firefox ESR 153: both let Authorization through under Allow-Headers: *.
  if (prediction.failure === AUTHORIZATION_UNDER_WILDCARD && seen.preflight && seen.sent && seen.readable)
    return `${ctx.engine} lets Authorization through under Access-Control-Allow-Headers: *, which the spec says must name it.`;
  // Measured on Firefox ESR 153: fetch's headers given as pairs skip the total (and the joined value's) check.
  if (
    ctx.engine === 'firefox' &&
    planned.mode === 'cors' &&
    onlyOverSafelistedTotal(planned.headers) &&
    !seen.preflight &&
    seen.sent === prediction.sent &&
    seen.readable === prediction.readable
  )
    return 'firefox sends a name given several times as [name, value] pairs without a preflight, whatever the total (with Headers.append it preflights); the spec says over 1024 bytes together preflight.';
  return null;
}

/** The name and value of the demo cookie in a lab reflection's Cookie header, if it came. */
const DEMO_COOKIE = /(?:^|;\s*)origin_lab_demo=([^;]*)/;

/**
 * Whether the demo cookie this run set comes back: a second credentialed request to the same
 * lab origin, whose reflection shows the demo cookie it carried. The cookie's value is the
 * first request's mark, so an older demo cookie is told apart.
 */
async function cookieComesBack(origin: string, setBy: string): Promise<{ returned: boolean; note: string }> {
  const url = markedUrl(`${origin}/lab/cors?allow-credentials=true`, marker('playground-cookie'));
  const result = await attempt(async () => {
    const answer = await fetch(url, { credentials: 'include' });
    return (await answer.json()) as LabCorsReflection;
  });
  if (!result.ok) return { returned: false, note: `the follow-up request failed: ${result.error}` };
  const cookie = String(result.value.headers.cookie ?? '');
  const value = DEMO_COOKIE.exec(cookie)?.[1];
  if (value === setBy) return { returned: true, note: 'The demo cookie came back on the next credentialed request.' };
  if (value !== undefined)
    return {
      returned: false,
      note: 'An older demo cookie came back on the next request, not this one: this one was not kept.',
    };
  return { returned: false, note: 'No demo cookie came back on the next credentialed request.' };
}

/** What the spec lets one expect of the demo cookie: it speaks only of None; Secure, and says browsers differ. */
function cookieExpectation(scenario: LabCorsScenario, crossOrigin: boolean): string {
  const attributes = `SameSite=${scenario.cookie === 'none' ? 'None' : scenario.cookie === 'lax' ? 'Lax' : 'Strict'}${scenario.cookieSecure ? '; Secure' : ''}`;
  if (!crossOrigin) return `The demo cookie (${attributes}) is set and sent back on this origin.`;
  return scenario.cookie === 'none' && scenario.cookieSecure
    ? `The demo cookie (${attributes}) may be kept and sent back cross-site, if the browser allows third-party cookies.`
    : `The demo cookie (${attributes}): sending a cookie cross-site needs SameSite=None; Secure, so expect it withheld. Browsers differ.`;
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
  if (scenario.cookie !== 'off') byId('predicted').append(li(cookieExpectation(scenario, crossOrigin)));
  byId('observed').replaceChildren(li('Sending\u2026'));
  const observed = await send(url, planned, body.setByPage ? typed : written, body);
  showObserved(observed);
  const cookie = scenario.cookie === 'off' ? null : await cookieComesBack(origin, mark);
  if (cookie) byId('observed').append(li(cookie.note));
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

  // X-Lab-Extra is compared only when the case sets it and both sides say the answer is readable.
  const extraSeen =
    scenario.extraHeader !== null && observed.readable ? observed.headers.includes('x-lab-extra') : null;
  const extraExpected =
    scenario.extraHeader !== null && prediction.visibleHeaders
      ? prediction.visibleHeaders.includes('x-lab-extra')
      : null;
  const seen = { preflight: evidence.preflight !== null, sent: evidence.request !== null, readable: observed.readable };
  const expected = { preflight: prediction.preflight.sent, sent: prediction.sent, readable: prediction.readable };
  const agrees =
    seen.preflight === expected.preflight &&
    seen.sent === expected.sent &&
    seen.readable === expected.readable &&
    (extraSeen === null || extraExpected === null || extraSeen === extraExpected);
  const known = agrees ? null : knownDifference(planned, prediction, seen);
  const agreement = byId('agreement');
  agreement.dataset.state = agrees ? 'agree' : known ? 'known-difference' : 'disagree';
  // The run in the shape the engine records keep (e2e reads it from here).
  const outcome: EngineOutcome = {
    ...seen,
    status: observed.status,
    extraVisible: extraSeen,
    cookieReturned: cookie?.returned ?? null,
    agreement: agrees ? 'agree' : known ? 'known-difference' : 'disagree',
  };
  agreement.dataset.observed = JSON.stringify({
    predicted: { ...expected, extraVisible: extraExpected },
    observed: { ...seen, extraVisible: extraSeen },
    status: observed.status,
    rule: explanation.rule,
    outcome,
  });
  agreement.textContent = agrees
    ? '\u2714 The browser did what the spec predicts.'
    : known
      ? `\u2248 A known engine difference: ${known}`
      : `\u2718 The browser differs from the prediction: predicted ${JSON.stringify(expected)}, observed ${JSON.stringify(seen)}.`;
}

// ---- What each engine did with the ready cases ------------------------------------------------

/** Each ready case's records, fetched the first time the form holds it. */
const recordsByCase = new Map<string, Promise<EngineRecord[]>>();

/** Each ready case by its canonical fragment: how the page knows which one the form holds. */
const PRESET_BY_FRAGMENT = new Map<string, Preset>(
  PRESETS.map((preset) => [
    canonicalCase(expandCase(new URLSearchParams(preset.fragment), DEFAULTS), DEFAULTS),
    preset,
  ]),
);

/** The ready case the form holds, if it holds one exactly. */
const currentPreset = (): Preset | undefined => PRESET_BY_FRAGMENT.get(caseFragment());

/** "Chromium did this, Firefox did that" for the form's case, from the e2e suite's records. */
async function showEngineRow(): Promise<void> {
  const preset = currentPreset();
  const row = byId('engine-row');
  const allCases = h('a', { href: '/engines.html' }, 'Every ready case in each engine');
  if (!preset) {
    row.replaceChildren(
      h('p', {}, 'The engines are recorded for the ready cases; this case is not one of them. ', allCases, '.'),
    );
    return;
  }
  if (!recordsByCase.has(preset.id)) recordsByCase.set(preset.id, loadEngineRecords({ caseId: preset.id }));
  const records = recordsForScheme((await recordsByCase.get(preset.id)) ?? [], location.protocol.replace(':', ''));
  // The form may have moved on while the records came.
  if (currentPreset() !== preset) return;
  const outcomes = records.map((record) => ({ record, outcome: record.cases[preset.id] }));
  if (outcomes.every(({ outcome }) => outcome === undefined)) {
    row.replaceChildren(h('p', {}, `\u201c${preset.name}\u201d has no engine records yet. `, allCases, '.'));
    return;
  }
  row.replaceChildren(
    h('p', {}, `\u201c${preset.name}\u201d, as the e2e suite recorded it (stack ${records[0]?.stack ?? ''}):`),
    h(
      'ul',
      {},
      ...outcomes.map(({ record, outcome }) => {
        const other = outcomes.find((item) => item.record !== record)?.outcome;
        return h(
          'li',
          {},
          h('strong', {}, `${ENGINE_LABELS[record.engine]} ${record.version}`),
          ': ',
          ...(outcome ? outcomePhrases(outcome, other) : ['not recorded']),
          '.',
        );
      }),
    ),
    h('p', {}, allCases),
  );
}

// ---- Wiring -----------------------------------------------------------------------------------

const presetSelect = byId<HTMLSelectElement>('preset');
const groups = [...new Set(PRESETS.map((preset) => preset.group))];
presetSelect.append(
  ...groups.map((group) =>
    h(
      'optgroup',
      { label: group },
      ...PRESETS.filter((preset) => preset.group === group).map((preset) =>
        h('option', { value: preset.id }, preset.name),
      ),
    ),
  ),
);
presetSelect.addEventListener('change', () => {
  const preset = PRESETS.find((candidate) => candidate.id === presetSelect.value);
  if (!preset) return;
  fillForm(new URLSearchParams(preset.fragment));
  rememberCase();
});
field(SPLIT_FIELD).addEventListener('change', () => {
  // Starting from the answer's policy, the preflight's own fields change one thing at a time.
  if ((field(SPLIT_FIELD) as HTMLInputElement).checked)
    for (const element of Array.from(form.elements) as HTMLInputElement[])
      if (element.name.startsWith(PREFLIGHT_PREFIX)) {
        const answer = field(element.name.slice(PREFLIGHT_PREFIX.length)) as HTMLInputElement;
        if (element.type === 'checkbox') element.checked = answer.checked;
        else element.value = answer.value;
      }
  syncSplit();
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
  fillForm(new URLSearchParams(location.hash.slice(1)));
  rememberCase();
});
fillForm(new URLSearchParams(location.hash.slice(1)));
rememberCase();
