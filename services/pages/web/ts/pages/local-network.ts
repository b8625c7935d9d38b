// The Local Network Access page: this server, asked at its other loopback address. Whether the
// browser counts this page as public, the page cannot know; what it can know is what the fetch
// gave, whether the server saw the request (the journal), and the permission's state. Each
// experiment names the mechanism that decided from those three, never from what it expected.
import { isLoopbackHost } from '@origin-lab/cors-rules/engine-facts';
import { byId, marker } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { privateAddress, websocketTargetPort } from '../frame/lab-servers.js';
import { rebindingExperiments } from '../local-network/rebinding.js';
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

/**
 * A Local Network Access permission's state (loopback-network, or local-network for a private
 * address), or null in an engine that knows no such permission (no Local Network Access).
 */
async function loopbackPermission(name = 'loopback-network'): Promise<string | null> {
  try {
    return (await navigator.permissions.query({ name: name as PermissionName })).state;
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

/**
 * Throws unless this page is served from this machine (a loopback name or address), as the
 * experiments need: elsewhere the other loopback address is the visitor's own machine, not this server.
 */
function requireThisMachine(): void {
  if (!isLoopbackHost(location.hostname))
    throw new Error(
      `this page is served from ${location.hostname}, not from this machine: open it at 127.0.0.1 on the machine that runs the lab`,
    );
}

/** A fetch of the CORS lab at an address of this server (by default the other loopback one), and what the server saw. */
async function attempt(
  query: string,
  at = target,
  permissionName = 'loopback-network',
  label = 'lna',
): Promise<Attempt> {
  requireThisMachine();
  const mark = marker(label);
  const url = tagUrl(markedUrl(`${at}/lab/cors${query}`, mark), [at]);
  let outcome: string;
  try {
    outcome = String((await fetch(url, { signal: AbortSignal.timeout(ANSWER_WAIT_MS) })).status);
  } catch (err) {
    outcome = (err as Error).name;
  }
  const seen = await serverEvidence(ctx.journal, mark, ARRIVAL_WAIT_MS);
  const arrived = seen.request !== null || seen.preflight !== null;
  return { outcome, arrived, permission: await loopbackPermission(permissionName) };
}

/** Not read, and nothing arrived, in an engine that asks for the permission and was not given it. */
const stoppedBeforeLeaving = (a: Attempt) =>
  /^\D/.test(a.outcome) && !a.arrived && a.permission !== null && a.permission !== 'granted';

/** What the page saw of a fetch, in words. */
function fetchSaw(a: Attempt): string {
  if (a.outcome === 'TimeoutError')
    return `no answer within ${ANSWER_WAIT_MS / 1000} s (the browser was still asking you)`;
  return /^\d/.test(a.outcome) ? `the page read status ${a.outcome}` : `fetch rejected with ${a.outcome}`;
}

/** Which mechanism decided, in words, from what the page and the server saw. */
interface Said {
  /** What the page saw, in words. */
  saw?: string;
  /** Whether the page got what it asked for (a status, the WebSocket's greeting, the frame). */
  read?: boolean;
  /** Why, when it did. */
  passed?: string;
  /** Which permission the attempt's state is of. */
  permissionName?: string;
}

function decided(a: Attempt, said: Said = {}): string {
  const { saw = fetchSaw(a), read = /^\d/.test(a.outcome), passed = 'CORS let it through.' } = said;
  const name = said.permissionName ?? 'loopback';
  const server = a.arrived ? 'the server saw the request' : 'the server saw nothing';
  const permission =
    a.permission === null ? `this browser knows no ${name} permission` : `${name} permission: ${a.permission}`;
  const why = a.arrived
    ? read
      ? passed
      : 'CORS refused it: the request left, was answered, and only the reading was refused.'
    : stoppedBeforeLeaving(a)
      ? a.permission === 'denied'
        ? 'Local Network Access stopped it before it left: not CORS.'
        : `Local Network Access stopped it before it left (not CORS), if your browser counts this page as public; else nothing answers at ${target}.`
      : 'It never reached the server.';
  return `${saw}; ${server}; ${permission}. ${why}`;
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

// The same question asked by other kinds of request: each reaches the same server (the
// WebSocket, a small server of its own beside the lab), and each names what decided it.

/** Where an attempt of another kind goes: this server's lab at the other loopback address, marked and tagged. */
function markedTarget(label: string): { url: string; mark: string } {
  requireThisMachine();
  const mark = marker(label);
  return { url: tagUrl(markedUrl(`${target}/lab/cors`, mark), [target]), mark };
}

/** What the server saw of a marked attempt, and the permission's state after it. */
async function afterwards(outcome: string, mark: string | null): Promise<Attempt> {
  const seen = mark === null ? null : await serverEvidence(ctx.journal, mark, ARRIVAL_WAIT_MS);
  const arrived = seen !== null && (seen.request !== null || seen.preflight !== null);
  return { outcome, arrived, permission: await loopbackPermission() };
}

/** A fetch made by a dedicated worker of this page. */
async function fromWorker(): Promise<Attempt> {
  const { url, mark } = markedTarget('lna-worker');
  const worker = new Worker('/js/workers/lna-fetch.js', { type: 'module' });
  try {
    const outcome = await new Promise<string>((resolve) => {
      worker.addEventListener('message', (event: MessageEvent<string>) => resolve(event.data));
      worker.addEventListener('error', () => resolve('WorkerError'));
      setTimeout(() => resolve('TimeoutError'), ANSWER_WAIT_MS);
      worker.postMessage(url);
    });
    return await afterwards(outcome, mark);
  } finally {
    worker.terminate();
  }
}

/** A frame navigated to the other address: whether it loaded says nothing (an error page loads too); the server says. */
async function inFrame(): Promise<Attempt> {
  const { url, mark } = markedTarget('lna-iframe');
  const frame = document.createElement('iframe');
  frame.title = 'Local Network Access: a frame at the other loopback address';
  frame.className = 'lna-frame';
  const loaded = new Promise<string>((resolve) => {
    frame.addEventListener('load', () => resolve('load'));
    setTimeout(() => resolve('no load event'), ARRIVAL_WAIT_MS);
  });
  frame.src = url;
  box.append(frame);
  try {
    return await afterwards(await loaded, mark);
  } finally {
    frame.remove();
  }
}

/** A WebSocket to the target beside the lab, at the other loopback address; it answers with the Origin it saw, then closes. */
async function viaWebSocket(): Promise<Attempt> {
  const port = websocketTargetPort();
  if (port === null)
    throw new Error('this server runs no WebSocket target (npm start runs one): nothing to connect to');
  requireThisMachine();
  const socket = new WebSocket(`ws://${new URL(target).hostname}:${port}/`);
  const outcome = await new Promise<string>((resolve) => {
    socket.addEventListener('message', () => resolve('opened'));
    socket.addEventListener('error', () => resolve('error'));
    setTimeout(() => resolve('TimeoutError'), ANSWER_WAIT_MS);
  });
  socket.close();
  // The target is not the lab: it keeps no journal. Its greeting is what shows it was reached.
  return { ...(await afterwards(outcome, null)), arrived: outcome === 'opened' };
}

/** A fetch that says which address space it means to reach (Chromium's targetAddressSpace). */
async function withAddressSpace(space: string): Promise<Attempt> {
  const { url, mark } = markedTarget(`lna-space-${space}`);
  let outcome: string;
  try {
    const init = { signal: AbortSignal.timeout(ANSWER_WAIT_MS), targetAddressSpace: space } as RequestInit;
    outcome = String((await fetch(url, init)).status);
  } catch (err) {
    outcome = (err as Error).name;
  }
  return afterwards(outcome, mark);
}

/** A fetch to this server at one of the machine's private addresses (npm start listens on all). */
async function toPrivateAddress(): Promise<Attempt> {
  const address = privateAddress();
  // Nothing to call: said as the outcome (a machine may have no private address), not as a failure.
  if (address === null) return { outcome: 'no private address', arrived: false, permission: null };
  const other = new URL(target);
  other.hostname = address;
  return attempt('', other.origin, 'local-network', 'lna-private');
}

/** Reached (and read where a status was read), or stopped by Local Network Access before it left. */
const reachedOrStopped = (a: Attempt) => (a.arrived && !/^[A-Z]/.test(a.outcome)) || stoppedBeforeLeaving(a);

const frameSaw = (a: Attempt) => (a.outcome === 'load' ? 'the frame fired load' : 'the frame fired no load event');
const socketSaw = (a: Attempt) =>
  a.outcome === 'opened' ? 'the WebSocket opened and was greeted' : `the WebSocket failed (${a.outcome})`;

for (const { id, title, predicted, run, agrees, saw } of [
  {
    id: 'lna-worker',
    title: 'fetch from a worker of this page, to the other loopback address',
    predicted:
      "A worker's requests are checked as its page's are: on your own machine status 200 and the server saw it; counted public and not allowed, fetch rejects in the worker and nothing leaves.",
    run: fromWorker,
    agrees: reachedOrStopped,
  },
  {
    id: 'lna-iframe',
    title: 'A frame at the other loopback address',
    predicted:
      'A navigation is checked too (Chromium and Firefox): on your own machine the server saw the frame load; counted public and not allowed, it saw nothing. The load event says nothing either way: an error page loads too.',
    run: inFrame,
    agrees: (a: Attempt) => a.arrived || stoppedBeforeLeaving(a),
    saw: (a: Attempt) =>
      decided(a, { saw: frameSaw(a), read: a.arrived, passed: 'Nothing stopped it (a frame is not CORS).' }),
  },
  {
    id: 'lna-websocket',
    title: 'A WebSocket to a small server beside the lab, at the other loopback address',
    predicted:
      'On your own machine it opens and the server greets it. Counted public and not allowed: Chromium (since 147) refuses to connect; Firefox 153 still connects (its check covers WebSocket from 154); WebKit has no Local Network Access. The service itself has no WebSocket: this is a server of its own.',
    run: viaWebSocket,
    agrees: (a: Attempt) => a.outcome === 'opened' || (a.outcome === 'error' && stoppedBeforeLeaving(a)),
    saw: (a: Attempt) =>
      decided(a, {
        saw: socketSaw(a),
        read: a.outcome === 'opened',
        passed: 'Nothing stopped it (a WebSocket is not CORS).',
      }),
  },
  {
    id: 'lna-private',
    title: "fetch(this server at one of the machine's private addresses)",
    predicted:
      'A private address (a LAN or a ULA) is the local network: from a page on your own machine (loopback, more private still) nothing is asked, status 200. Counted public, the browser asks for the local network permission (not the loopback one) first; refused, nothing leaves. WebKit has no Local Network Access.',
    run: toPrivateAddress,
    agrees: (a: Attempt) => a.outcome === 'no private address' || reachedOrStopped(a),
    saw: (a: Attempt) =>
      a.outcome === 'no private address'
        ? 'This machine has no private address the lab listens on (or HOST names one address): nothing to call.'
        : decided(a, { permissionName: 'local network' }),
  },
  {
    id: 'lna-target-address-space',
    title: "fetch(…, { targetAddressSpace: 'loopback' }): the page says it means to reach loopback",
    predicted:
      'The address is loopback, as said: the request goes on as any other (status 200 on your own machine; asked first when counted public). Chromium reads the option; Firefox and WebKit ignore it.',
    run: () => withAddressSpace('loopback'),
    agrees: reachedOrStopped,
  },
  {
    id: 'lna-target-address-space-wrong',
    title: "fetch(…, { targetAddressSpace: 'local' }) to a loopback address",
    predicted:
      'Chromium refuses a request that reaches another address space than the one it said (loopback is not local), before anything is sent, even on your own machine: TypeError, the server saw nothing. Firefox and WebKit ignore the option: as without it.',
    run: () => withAddressSpace('local'),
    agrees: (a: Attempt) => (ctx.engine === 'chromium' ? a.outcome === 'TypeError' && !a.arrived : reachedOrStopped(a)),
  },
])
  experiment(box, {
    id,
    title,
    predicted,
    async run() {
      const a = await run();
      return { observed: { ...a }, summary: saw ? saw(a) : decided(a), agrees: agrees(a) };
    },
  });

rebindingExperiments(ctx);
