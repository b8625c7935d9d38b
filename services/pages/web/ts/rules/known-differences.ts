import type { EngineFamily } from '@origin-lab/cors-rules';

/**
 * Every known engine difference the demonstration pages show: where an engine, measured, does
 * not do what SPEC.md (and the Fetch or HTML standard) says, or does what the spec allows but the
 * other engines do not. One list, read by the pages (the sentence after "a known engine
 * difference:", or in the prediction) and by /engines.html (its second table). A page still
 * decides from what it observed whether the difference happened; the list says what it is.
 */
export interface KnownDifference {
  /** The page's name: 'bodies' for /bodies.html. */
  page: string;
  /** The experiment's id on that page (its section's id). */
  experiment: string;
  engine: EngineFamily;
  /** What the engine did, in a few words: the cell of the engines page's table. */
  did: string;
  /** The sentence the page shows when the experiment ends as this difference. */
  says: string;
  /** The engine and version it was measured in. */
  measured: string;
  /**
   * True: the engine departs from the spec, and the page says known-difference. False: the spec
   * allows what it did (the page agrees) and only the other engines do otherwise; the page's
   * prediction says it.
   */
  departsFromSpec: boolean;
}

/** The engines and versions the differences were measured in. */
export const CHROMIUM = 'Chromium 156';
export const FIREFOX = 'Firefox ESR 153';
export const WEBKIT = 'WebKit (GTK) 2.50.6';

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    page: 'bodies',
    experiment: 'content-types',
    engine: 'firefox',
    did: 'sends a ReadableStream body as the text "[object ReadableStream]" (text/plain)',
    says: 'this engine cannot send a ReadableStream as a request body; it sends the text "[object ReadableStream]" as text/plain instead',
    measured: FIREFOX,
    departsFromSpec: true,
  },
  {
    page: 'bodies',
    experiment: 'content-types',
    engine: 'webkit',
    did: "rejects a ReadableStream body with NotSupportedError, with or without duplex: 'half'",
    says: "this engine cannot send a ReadableStream as a request body: fetch rejects with NotSupportedError, with or without duplex: 'half'",
    measured: WEBKIT,
    departsFromSpec: true,
  },
  {
    page: 'outcomes',
    experiment: 'deadline',
    engine: 'webkit',
    did: 'a fetch under AbortSignal.timeout() rejects with AbortError, not TimeoutError',
    says: 'a fetch given AbortSignal.timeout() rejects with AbortError, not TimeoutError (XHR is as predicted); the transport still says kind "timeout", because it asks the signal',
    measured: WEBKIT,
    departsFromSpec: true,
  },
  {
    page: 'outcomes',
    experiment: 'abort-reason',
    engine: 'webkit',
    did: 'a fetch aborted with a string reason rejects with an AbortError DOMException, not the reason',
    says: 'a fetch aborted with a reason rejects with an AbortError DOMException, not with the reason itself; the transport still says kind "abort", because it asks the signal',
    measured: WEBKIT,
    departsFromSpec: true,
  },
  {
    page: 'events',
    experiment: 'no-websocket',
    engine: 'webkit',
    did: 'a ws: socket from an https page fires error but never close: it is never failed',
    says: 'from this https page a ws: socket fired error but no close event before the page gave up on it after 5 s, and nothing reached the service; the standard fails the connection (close code 1006), as the other engines do',
    measured: WEBKIT,
    departsFromSpec: true,
  },
  {
    page: 'beacons',
    experiment: 'keepalive-budget',
    engine: 'firefox',
    did: 'sendBeacon queues any size: the 64 KiB budget applies to keepalive fetch only',
    says: 'firefox does not apply the 64 KiB budget to sendBeacon (its keepalive fetch does refuse 70 KiB)',
    measured: FIREFOX,
    departsFromSpec: true,
  },
  {
    page: 'beacons',
    experiment: 'lifecycle-unload-policy',
    engine: 'firefox',
    did: 'ignores Permissions-Policy: unload=(): the listener runs and the page is loaded again',
    says: 'firefox does not implement the unload policy: the listener runs and the page is loaded again',
    measured: FIREFOX,
    departsFromSpec: true,
  },
  {
    page: 'beacons',
    experiment: 'lifecycle-unload',
    engine: 'webkit',
    did: 'caches a page that listens for unload: the listener never runs, going back restores the page',
    says: 'webkit keeps a page that listens for unload in the back/forward cache: unload never runs, and going back restores the page (pageshow persisted true)',
    measured: WEBKIT,
    departsFromSpec: false,
  },
  {
    page: 'isolation',
    experiment: 'isolated',
    engine: 'webkit',
    did: 'does not know COEP credentialless: a page served with it is not isolated, and embeds as without COEP',
    says: 'webkit does not know Cross-Origin-Embedder-Policy: credentialless, so this page is not cross-origin isolated (it embeds as a page without COEP)',
    measured: WEBKIT,
    departsFromSpec: true,
  },
  {
    page: 'isolation',
    experiment: 'shared-array-buffer',
    engine: 'webkit',
    did: 'exposes no SharedArrayBuffer to a cross-origin isolated page',
    says: 'webkit (GTK) reports crossOriginIsolated true and still exposes no SharedArrayBuffer',
    measured: WEBKIT,
    departsFromSpec: true,
  },
  {
    page: 'local-network',
    experiment: 'lna-allowed',
    engine: 'webkit',
    did: 'has no Local Network Access: a public page reaches loopback, CORS alone decides',
    says: 'webkit has no Local Network Access: CORS alone decides',
    measured: WEBKIT,
    departsFromSpec: false,
  },
];

/** The known difference of this experiment in this engine, if the list (by default the one above) has one. */
export function knownDifferenceOf(
  page: string,
  experiment: string,
  engine: EngineFamily,
  list: readonly KnownDifference[] = KNOWN_DIFFERENCES,
): KnownDifference | null {
  return list.find((d) => d.page === page && d.experiment === experiment && d.engine === engine) ?? null;
}

/**
 * What a page passes as its outcome's knownDifference: the listed sentence when the experiment
 * ended as the listed departure from the spec (happened, judged by the page from what it
 * observed), else null.
 */
export function knownDifference(
  page: string,
  experiment: string,
  engine: EngineFamily,
  happened: boolean,
  list: readonly KnownDifference[] = KNOWN_DIFFERENCES,
): string | null {
  const listed = knownDifferenceOf(page, experiment, engine, list);
  return happened && listed?.departsFromSpec ? listed.says : null;
}
