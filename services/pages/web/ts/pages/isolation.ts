// The isolation page: one page at three addresses (services/pages/src/isolation.ts gives each its
// COOP and COEP), whose experiments embed an image and fetch from the other origin. What each
// should do follows from the headers this address was served with, read back from the server.
import { byId, h, marker } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';
import { knownDifference } from '../rules/known-differences.js';

/** Where the window the opener experiment opens says whether it still has an opener. */
const OPENER_CHANNEL = 'origin-lab-isolation-opener';
const OPENED_MARK = '#opener-check';

// This page opened by the opener experiment: say on the channel (one origin, so it reaches the
// opener even when COOP cut the link) whether window.opener survived. Cut off, close; else the
// opener closes it, after reading whether it saw this window closed.
if (location.hash === OPENED_MARK) {
  const channel = new BroadcastChannel(OPENER_CHANNEL);
  channel.postMessage({ opener: window.opener !== null });
  channel.close();
  if (window.opener === null) window.close();
}

const ctx = setupPage();
const box = ctx.experiments;
runAllButton(box);

/** What this address is served with, as HTML reads it: COEP counts only with COOP, in a secure context. */
interface Policy {
  coop: string | null;
  coep: string | null;
  secure: boolean;
}

/** This address's own headers, asked of the server again (a page cannot read its own response headers). */
const policy: Promise<Policy> = fetch(location.pathname, { method: 'HEAD', cache: 'no-store' }).then((answer) => ({
  coop: answer.headers.get('Cross-Origin-Opener-Policy'),
  coep: answer.headers.get('Cross-Origin-Embedder-Policy'),
  secure: isSecureContext,
}));
void policy.then(({ coop, coep, secure }) => {
  byId('isolation-headers').textContent =
    coop || coep ? `COOP ${coop ?? 'none'} and COEP ${coep ?? 'none'}` : 'neither header';
  byId('isolation-secure').textContent = secure ? 'is one' : 'is not one, so both headers are ignored here';
  for (const link of byId('isolation-addresses').querySelectorAll('a'))
    if (link.getAttribute('href') === location.pathname) link.setAttribute('aria-current', 'page');
});

/** The COEP in force: none outside a secure context (HTML, "obtain an embedder policy"). */
const embedder = ({ coep, secure }: Policy) => (secure && coep ? coep : 'unsafe-none');
const isolatedBy = (p: Policy) => p.secure && p.coop === 'same-origin' && embedder(p) !== 'unsafe-none';

/** A URL of the other origin that no cache has: the image, without or with CORP. */
const imageUrl = (corp: boolean) => `${ctx.other()}/isolation/image${corp ? '-corp' : ''}.svg?${marker('image')}`;

/** Whether an <img> of url loads (load) or is blocked (error), within 10 s. */
function loads(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const image = h('img', { alt: '' }) as HTMLImageElement;
    const timer = setTimeout(() => resolve(false), 10_000);
    image.addEventListener('load', () => (clearTimeout(timer), resolve(true)));
    image.addEventListener('error', () => (clearTimeout(timer), resolve(false)));
    image.src = url;
  });
}

const said = (p: Policy) =>
  `This address: COOP ${p.coop ?? 'none'}, COEP ${embedder(p)}${p.secure ? '' : ' (not a secure context: headers ignored)'}.`;

experiment(box, {
  id: 'isolated',
  title: 'crossOriginIsolated',
  predicted:
    'True only with COOP same-origin and a COEP of require-corp or credentialless, in a secure context; false anywhere else.',
  async run() {
    const p = await policy;
    const expected = isolatedBy(p);
    return {
      observed: { crossOriginIsolated },
      summary: `${said(p)} crossOriginIsolated: ${crossOriginIsolated}.`,
      agrees: crossOriginIsolated === expected,
      knownDifference: knownDifference(
        'isolation',
        'isolated',
        ctx.engine,
        embedder(p) === 'credentialless' && !crossOriginIsolated,
      ),
    };
  },
});

experiment(box, {
  id: 'shared-array-buffer',
  title: 'SharedArrayBuffer',
  predicted:
    'There exactly when the page is cross-origin isolated (it lets threads share memory, which Spectre made a risk).',
  async run() {
    const p = await policy;
    const there = typeof SharedArrayBuffer === 'function';
    return {
      observed: { sharedArrayBuffer: there },
      summary: `${said(p)} crossOriginIsolated: ${crossOriginIsolated}; SharedArrayBuffer: ${there ? 'there' : 'absent'}.`,
      agrees: there === crossOriginIsolated,
      knownDifference: knownDifference('isolation', 'shared-array-buffer', ctx.engine, crossOriginIsolated && !there),
    };
  },
});

// The same image twice: without CORP, blocked only under COEP require-corp; with CORP cross-origin, loaded everywhere.
const IMAGE_EXPERIMENTS = [
  {
    corp: false,
    title: 'An image from the other origin, without Cross-Origin-Resource-Policy',
    predicted:
      'Loads, except under COEP require-corp, which blocks anything cross-origin that neither says CORP nor comes through CORS. Under credentialless it loads, fetched without cookies.',
    expected: (p: Policy) => embedder(p) !== 'require-corp',
  },
  {
    corp: true,
    title: 'The same image with Cross-Origin-Resource-Policy: cross-origin',
    predicted: 'Loads everywhere: CORP cross-origin is the resource agreeing to be embedded by any origin.',
    expected: () => true,
  },
];
for (const { corp, title, predicted, expected } of IMAGE_EXPERIMENTS)
  experiment(box, {
    id: corp ? 'image-with-corp' : 'image-without-corp',
    title,
    predicted,
    async run() {
      const p = await policy;
      const loaded = await loads(imageUrl(corp));
      return {
        observed: { loaded },
        summary: `${said(p)} The image ${loaded ? 'loaded' : 'was blocked'}.`,
        agrees: loaded === expected(p),
      };
    },
  });

experiment(box, {
  id: 'fetch-no-cors',
  title: "fetch(the image without CORP, { mode: 'no-cors' })",
  predicted:
    'An opaque answer, except under COEP require-corp, where fetch rejects with TypeError: a no-cors answer without CORP is blocked like the image. Under credentialless it passes, sent without cookies.',
  async run() {
    const p = await policy;
    let outcome: string;
    try {
      outcome = (await fetch(imageUrl(false), { mode: 'no-cors' })).type;
    } catch (err) {
      outcome = (err as Error).name;
    }
    return {
      observed: { outcome },
      summary: `${said(p)} fetch gave ${outcome === 'opaque' ? 'an opaque answer' : outcome}.`,
      agrees: outcome === (embedder(p) === 'require-corp' ? 'TypeError' : 'opaque'),
    };
  },
});

experiment(box, {
  id: 'fetch-cors',
  title: 'fetch(the CORS lab on the other origin): a CORS request',
  predicted:
    'Readable everywhere: a CORS request needs the server to allow the origin (the lab does), never CORP. This is how an isolated page still reads other origins.',
  async run() {
    const p = await policy;
    let outcome: string;
    try {
      outcome = String((await fetch(`${ctx.other()}/lab/cors`)).status);
    } catch (err) {
      outcome = (err as Error).name;
    }
    return {
      observed: { outcome },
      summary: `${said(p)} fetch gave ${/^\d+$/.test(outcome) ? `status ${outcome}` : outcome}.`,
      agrees: outcome === '200',
    };
  },
});

/** What the opened window said on the channel, or null when it said nothing within 10 s. */
function openedSays(channel: BroadcastChannel): Promise<{ opener: boolean } | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 10_000);
    channel.addEventListener('message', (event: MessageEvent<{ opener: boolean }>) => {
      clearTimeout(timer);
      resolve(event.data);
    });
  });
}

experiment(box, {
  id: 'opener',
  title: 'window.open this origin under the other COOP',
  predicted:
    'A page and the window it opens stay linked only when their COOP agrees. Here one says same-origin and the other nothing, so the browser puts the new window in a browsing context group of its own: its window.opener is null, and to this page it looks closed. Outside a secure context COOP is ignored and the link stays. Both pages are one origin: CORS has no part in it.',
  manual: 'it opens a window, which a popup blocker may stop',
  async run() {
    // Opened first, while the click that started the experiment still counts as the user's.
    const target = location.pathname === '/isolation.html' ? '/isolation-require-corp.html' : '/isolation.html';
    const channel = new BroadcastChannel(OPENER_CHANNEL);
    const heard = openedSays(channel);
    const opened = window.open(`${target}${OPENED_MARK}`, '_blank');
    const p = await policy;
    const message = opened === null ? null : await heard;
    channel.close();
    const closed = opened?.closed ?? true;
    if (opened !== null && !closed) opened.close();
    const cut = p.secure;
    const observed = { opened: opened !== null, popupHasOpener: message?.opener ?? null, openerSeesClosed: closed };
    return {
      observed,
      summary:
        opened === null
          ? 'The window was not opened (a popup blocker?).'
          : `${said(p)} Opened ${target}: ${message === null ? 'it said nothing within 10 s' : `its window.opener is ${message.opener ? 'this page' : 'null'}`}, and this page sees it ${closed ? 'closed' : 'open'}.`,
      agrees: message !== null && message.opener === !cut && closed === cut,
    };
  },
});
