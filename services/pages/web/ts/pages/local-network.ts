// The Local Network Access page: this server, asked at its other loopback address. Whether the
// browser counts this page as public, the page cannot know; what it can know is what the fetch
// gave, whether the server saw the request (the journal), and the permission's state. Each
// experiment names the mechanism that decided from those three, never from what it expected.
import { byId, marker } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';
import { markedUrl, serverEvidence } from '../probes/journal.js';
import { tagUrl } from '../server-view/visitor.js';

const ctx = setupPage();
const box = ctx.experiments;
runAllButton(box);

/** How long a request may wait for the user to answer the browser's question (Firefox waits; a person needs time). */
const ANSWER_WAIT_MS = 30_000;
/** How long the journal is asked for a request that may have arrived. */
const ARRIVAL_WAIT_MS = 3_000;

/**
 * This server at the other loopback address, same scheme and port: [::1] from a page on
 * 127.0.0.1, else 127.0.0.1. A browser told that this page's address is public counts the other
 * one as loopback still, so a request to it is one Local Network Access asks about.
 */
const target = (() => {
  const url = new URL(location.origin);
  url.hostname = url.hostname === '127.0.0.1' ? '[::1]' : '127.0.0.1';
  return url.origin;
})();

// The recipe, with this page's own port: the page's address counted as public, opened at 127.0.0.1.
const port = location.port || (location.protocol === 'https:' ? '443' : '80');
byId('lna-target').textContent = target;
byId('lna-page').textContent = `${location.protocol}//127.0.0.1:${port}${location.pathname}`;
byId('lna-chromium').textContent = `chromium --ip-address-space-overrides=127.0.0.1:${port}=public`;
byId('lna-firefox').textContent = `127.0.0.1:${port}`;

/** The loopback permission's state, or null in an engine that knows no such permission (no Local Network Access). */
async function loopbackPermission(): Promise<string | null> {
  try {
    return (await navigator.permissions.query({ name: 'loopback-network' as PermissionName })).state;
  } catch {
    return null;
  }
}

interface Attempt {
  /** The status read, TypeError (refused), or TimeoutError (the browser was still asking the user). */
  outcome: string;
  /** Whether the server saw the request (or a preflight for it). */
  arrived: boolean;
  permission: string | null;
}

/** Whether this page is served from this machine (a loopback name or address), as the experiments need. */
const onThisMachine = /^(localhost|.+\.localhost|127(\.\d+){3}|\[::1\])$/.test(location.hostname);

async function attempt(query: string): Promise<Attempt> {
  // Elsewhere the other loopback address is the visitor's own machine, not this server.
  if (!onThisMachine)
    throw new Error(
      `this page is served from ${location.hostname}, not from this machine: open it at 127.0.0.1 on the machine that runs the lab`,
    );
  const mark = marker('lna');
  const url = tagUrl(markedUrl(`${target}/lab/cors${query}`, mark), [target]);
  let outcome: string;
  try {
    outcome = String((await fetch(url, { signal: AbortSignal.timeout(ANSWER_WAIT_MS) })).status);
  } catch (err) {
    outcome = (err as Error).name;
  }
  const seen = await serverEvidence(ctx.journal, mark, ARRIVAL_WAIT_MS);
  return { outcome, arrived: seen.request !== null || seen.preflight !== null, permission: await loopbackPermission() };
}

/** Not read, and nothing arrived, in an engine that asks for the permission and was not given it. */
const stoppedBeforeLeaving = (a: Attempt) =>
  /^\D/.test(a.outcome) && !a.arrived && a.permission !== null && a.permission !== 'granted';

/** Which mechanism decided, in words, from what the page and the server saw. */
function decided(a: Attempt): string {
  const page =
    a.outcome === 'TimeoutError'
      ? `no answer within ${ANSWER_WAIT_MS / 1000} s (the browser was still asking you)`
      : /^\d/.test(a.outcome)
        ? `the page read status ${a.outcome}`
        : `fetch rejected with ${a.outcome}`;
  const server = a.arrived ? 'the server saw the request' : 'the server saw nothing';
  const permission =
    a.permission === null ? 'this browser knows no loopback permission' : `loopback permission: ${a.permission}`;
  const why = a.arrived
    ? /^\d/.test(a.outcome)
      ? 'CORS let it through.'
      : 'CORS refused it: the request left, was answered, and only the reading was refused.'
    : stoppedBeforeLeaving(a)
      ? a.permission === 'denied'
        ? 'Local Network Access stopped it before it left: not CORS.'
        : `Local Network Access stopped it before it left (not CORS), if your browser counts this page as public; else nothing answers at ${target}.`
      : 'It never reached the server.';
  return `${page}; ${server}; ${permission}. ${why}`;
}

// The same request twice, where CORS allows this origin and where it refuses it: what each sees
// when CORS decides, and the one outcome of both when Local Network Access stops them first.
for (const { id, title, query, predicted, corsReads } of [
  {
    id: 'lna-allowed',
    title: 'fetch(this server at its other loopback address), where CORS allows this origin',
    query: '',
    predicted:
      'On your own machine the page is not public: nothing is asked, CORS decides, and the lab allows this origin: status 200, and the server saw it. Counted as public: the browser asks first. Refused (or a browser that cannot ask, such as a headless one), fetch rejects with TypeError and the server sees nothing; allowed, as on your own machine. WebKit has no Local Network Access: there CORS always decides.',
    corsReads: true,
  },
  {
    id: 'lna-cors-refused',
    title: 'The same, where CORS allows no origin (/lab/cors?allow-origin=none)',
    query: '?allow-origin=none',
    predicted:
      'CORS refuses: fetch rejects with TypeError, yet the server saw the request and answered it. Counted as public and not allowed by the user, the same TypeError, and the server saw nothing: the page alone cannot tell the two apart.',
    corsReads: false,
  },
])
  experiment(box, {
    id,
    title,
    predicted,
    async run() {
      const a = await attempt(query);
      return {
        observed: { ...a },
        summary: decided(a),
        agrees: (a.outcome === (corsReads ? '200' : 'TypeError') && a.arrived) || stoppedBeforeLeaving(a),
      };
    },
  });
