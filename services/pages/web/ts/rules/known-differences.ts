import type { EngineFamily } from './engine.js';

/**
 * Every known engine difference the demonstration pages show: where an engine, measured, does
 * not do what SPEC.md (and the Fetch or HTML standard) says. One list, read by the pages (the
 * sentence after "a known engine difference:") and by /engines.html (its second table). A page
 * still decides from what it observed whether the difference happened; the list says what it is.
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
}

const FIREFOX = 'Firefox ESR 153';
const WEBKIT = 'WebKit (GTK) 2.50.6';

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    page: 'bodies',
    experiment: 'content-types',
    engine: 'firefox',
    did: 'sends a ReadableStream body as the text "[object ReadableStream]" (text/plain)',
    says: 'this engine cannot send a ReadableStream as a request body; it sends the text "[object ReadableStream]" as text/plain instead',
    measured: FIREFOX,
  },
  {
    page: 'bodies',
    experiment: 'content-types',
    engine: 'webkit',
    did: "rejects a ReadableStream body with NotSupportedError, with or without duplex: 'half'",
    says: "this engine cannot send a ReadableStream as a request body: fetch rejects with NotSupportedError, with or without duplex: 'half'",
    measured: WEBKIT,
  },
  {
    page: 'outcomes',
    experiment: 'deadline',
    engine: 'webkit',
    did: 'a fetch under AbortSignal.timeout() rejects with AbortError, not TimeoutError',
    says: 'a fetch given AbortSignal.timeout() rejects with AbortError, not TimeoutError (XHR is as predicted); the transport still says kind "timeout", because it asks the signal',
    measured: WEBKIT,
  },
  {
    page: 'outcomes',
    experiment: 'abort-reason',
    engine: 'webkit',
    did: 'a fetch aborted with a string reason rejects with an AbortError DOMException, not the reason',
    says: 'a fetch aborted with a reason rejects with an AbortError DOMException, not with the reason itself; the transport still says kind "abort", because it asks the signal',
    measured: WEBKIT,
  },
  {
    page: 'beacons',
    experiment: 'keepalive-budget',
    engine: 'firefox',
    did: 'sendBeacon queues any size: the 64 KiB budget applies to keepalive fetch only',
    says: 'firefox does not apply the 64 KiB budget to sendBeacon (its keepalive fetch does refuse 70 KiB)',
    measured: FIREFOX,
  },
  {
    page: 'beacons',
    experiment: 'lifecycle-unload-policy',
    engine: 'firefox',
    did: 'ignores Permissions-Policy: unload=(): the listener runs and the page is loaded again',
    says: 'firefox does not implement the unload policy: the listener runs and the page is loaded again',
    measured: FIREFOX,
  },
];

/** The known difference of this experiment in this engine, if the list has one. */
export function knownDifferenceOf(page: string, experiment: string, engine: EngineFamily): KnownDifference | null {
  return (
    KNOWN_DIFFERENCES.find((d) => d.page === page && d.experiment === experiment && d.engine === engine) ?? null
  );
}

/**
 * What a page passes as its outcome's knownDifference: the listed sentence when the experiment
 * ended as the listed difference (happened, judged by the page from what it observed), else null.
 */
export function knownDifference(page: string, experiment: string, engine: EngineFamily, happened: boolean): string | null {
  return happened ? (knownDifferenceOf(page, experiment, engine)?.says ?? null) : null;
}
