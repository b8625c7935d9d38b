// DNS rebinding, with the lab's own resolver (npm start -- --rebind): the Local Network Access
// page's last two experiments and its recipe. An attack page is loaded under a name that first
// points at the attacker ([::1]) and then at a server on this machine (127.0.0.1), same port, so
// the browser counts the second as the same origin. Manual: the browser must first be set to ask
// the lab's resolver (the recipe), and a browser's DNS cache may hold the first answer a minute.
import { byId, marker } from '../frame/dom.js';
import { experiment } from '../frame/experiment.js';
import { rebindSite } from '../frame/lab-servers.js';
import type { PageContext } from '../page/setup-page.js';
import { knownDifference } from '../rules/known-differences.js';
import { LOCAL_NETWORK_DIFFERENCES } from '../rules/local-network-differences.js';

/** The recipe, from the lab's own settings: its resolver and the authority that signed its certificate. */
function fillRecipe(): void {
  const site = rebindSite();
  byId('rebind-state').textContent =
    site === null
      ? 'It is off on this server: the experiments say so.'
      : 'It is on: follow the recipe below, then run them.';
  if (site === null) return;
  byId('rebind-resolver').textContent = site.resolver;
  byId<HTMLAnchorElement>('rebind-ca').href = URL.createObjectURL(
    new Blob([site.caPem], { type: 'application/x-pem-file' }),
  );
}

/** How long the attack page keeps asking: past Chromium's minute of DNS cache. */
const REBIND_WAIT_MS = 90_000;
/** How long the attack page may take to load and say it started. */
const REBIND_START_MS = 10_000;

interface RebindResult {
  outcome: string;
  status?: number;
  refused?: string;
  waitedMs?: number;
}

/** The attack page's messages, from the origin it was loaded at. */
function attackReports(origin: string, onReport: (report: RebindResult & { kind?: string }) => void): () => void {
  const listener = (event: MessageEvent) => {
    if (event.origin === origin && (event.data as { kind?: string })?.kind === 'rebind') onReport(event.data);
  };
  addEventListener('message', listener);
  return () => removeEventListener('message', listener);
}

async function rebinding(box: HTMLElement, kind: 'open' | 'checked'): Promise<RebindResult> {
  const site = rebindSite();
  if (site === null)
    throw new Error('the rebinding lab is off: npm start -- --rebind, or docker compose --profile rebind up');
  // The attack page is http:// (the lab's names have no certificate): an https:// page may not frame it.
  if (location.protocol === 'https:')
    throw new Error(
      'open this page over http:// rather than https://: the attack page is http://, which an https:// page may not frame',
    );
  const label = marker('r')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
  const origin = `http://${label}.${site.domain}:${site.ports[kind]}`;
  const frame = document.createElement('iframe');
  frame.title = `DNS rebinding: the attack page against the ${kind} local server`;
  frame.className = 'lna-frame';
  let stopListening = () => {};
  const result = new Promise<RebindResult>((resolve) => {
    let started = false;
    stopListening = attackReports(origin, (report) => {
      if (report.outcome === 'started') started = true;
      else resolve(report);
    });
    setTimeout(() => started || resolve({ outcome: 'not-loaded' }), REBIND_START_MS);
    setTimeout(() => resolve({ outcome: 'no-report' }), REBIND_WAIT_MS + REBIND_START_MS);
  });
  frame.src = `${origin}/?report=${encodeURIComponent(location.origin)}&deadline=${REBIND_WAIT_MS}`;
  box.append(frame);
  try {
    const { outcome, status, refused, waitedMs } = await result;
    return {
      outcome,
      ...(status !== undefined && { status }),
      ...(refused && { refused }),
      ...(waitedMs !== undefined && { waitedMs }),
    };
  } finally {
    stopListening();
    frame.remove();
  }
}

function rebindSaid(r: RebindResult, engine: string): string {
  const after = r.waitedMs === undefined ? '' : ` after ${(r.waitedMs / 1000).toFixed(1)} s`;
  switch (r.outcome) {
    case 'read':
      return `The attack page read the local server${after}: its name now pointed at 127.0.0.1, and the server answered a Host it does not own. Only a Host check refuses this.`;
    case 'refused':
      return `The name was rebound${after}, and the local server refused it (${r.status}, wrong ${r.refused}): it checks that the Host is one of its own names.`;
    case 'not-rebound':
      return `The name still pointed at the attacker after ${REBIND_WAIT_MS / 1000} s: this browser kept its first answer.`;
    case 'failed':
      return `Every request failed once the name was rebound${after}: the browser refused them. Chromium's Local Network Access does, when it counts the attack page as public: a page that is not a secure context may not reach a more private address at all.`;
    default:
      return engine === 'webkit'
        ? "The attack page did not load: WebKit takes names from the system's resolver, so the lab's resolver cannot rebind them here."
        : "The attack page did not load: this browser does not ask the lab's resolver. Follow the recipe below, in a profile of its own.";
  }
}

/** The two rebinding experiments, added to the page's experiments, and the recipe filled in. */
export function rebindingExperiments(ctx: PageContext): void {
  fillRecipe();
  for (const { id, kind, title, predicted, expected } of [
    {
      id: 'rebind-open',
      kind: 'open' as const,
      title: 'DNS rebinding against a local server that answers any Host',
      predicted:
        'The attack page is loaded from the attacker ([::1]); its name then points at 127.0.0.1, and once the browser asks again (Firefox after the one-second TTL, Chromium after its own minute), its fetch("/secret") reaches the local server as the same origin: no CORS, no preflight. The server answers: read. Where Chromium counts the attack page as public (a real attacker\'s is), Local Network Access refuses every request once the name points at loopback; Firefox 153 does not check a same-origin request.',
      expected: (r: RebindResult) => r.outcome === 'read' || (r.outcome === 'failed' && ctx.engine === 'chromium'),
    },
    {
      id: 'rebind-checked',
      kind: 'checked' as const,
      title: 'The same attack against a local server that checks Host',
      predicted:
        "The same rebinding, but the request carries Host: <the attacker's name>, which is not one of the server's names: 403, and the page reads only the refusal. This is the fix (and the MCP SDKs' DNS rebinding protection).",
      expected: (r: RebindResult) => r.outcome === 'refused' && r.status === 403 && r.refused === 'Host',
    },
  ])
    experiment(ctx.experiments, {
      id,
      title,
      predicted,
      manual: "the browser must ask the lab's resolver (the recipe below), and the attack may take a minute",
      async run() {
        const r = await rebinding(ctx.experiments, kind);
        return {
          observed: { ...r },
          summary: rebindSaid(r, ctx.engine),
          agrees: expected(r),
          knownDifference: knownDifference(
            'local-network',
            id,
            ctx.engine,
            r.outcome === 'not-loaded',
            LOCAL_NETWORK_DIFFERENCES,
          ),
        };
      },
    });
}
