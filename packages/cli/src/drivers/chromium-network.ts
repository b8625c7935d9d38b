import type { CDPSession } from 'playwright-core';
import type { EngineReport } from './driver.js';

/** Chromium's CORS errors about the answer itself (not its preflight, not before it was sent). */
const ANSWER_REFUSALS = new Set([
  'MissingAllowOriginHeader',
  'MultipleAllowOriginValues',
  'InvalidAllowOriginValue',
  'AllowOriginMismatch',
  'InvalidAllowCredentials',
  'WildcardOriginNotAllowed',
]);

/** How many request ids of earlier sends a log remembers (a page sends a few per origin). */
const EARLIER_IDS = 1_000;

/**
 * What Chromium's DevTools protocol told of the requests of one send. The events of an earlier
 * send can still arrive after the next one began (on a loaded machine, after the engine had been
 * quiet a while): events of a request the log saw before its reset are not this send's.
 */
export class NetworkLog {
  /** When the engine last said anything of this page's requests (performance.now()). */
  lastEvent = 0;
  private readonly requests = new Map<string, { method: string }>();
  /** The requests of earlier sends, oldest first. */
  private readonly earlier = new Set<string>();
  preflight: { sent: boolean; status: number | null } = { sent: false, status: null };
  answered = false;
  corsError: string | null = null;
  corsParameter: string | null = null;
  blockedReason: string | null = null;
  /** Each request's cookies, as Chromium decided them (sent, or blocked with its reasons). */
  private readonly cookiesOf = new Map<string, { name: string; reasons: string[] }[]>();

  constructor(cdp: CDPSession) {
    for (const name of [
      'Network.requestWillBeSent',
      'Network.responseReceived',
      'Network.responseReceivedExtraInfo',
      'Network.loadingFinished',
      'Network.loadingFailed',
    ] as const)
      cdp.on(name, () => (this.lastEvent = performance.now()));
    cdp.on('Network.requestWillBeSent', (event) => {
      if (this.earlier.has(event.requestId)) return;
      this.requests.set(event.requestId, { method: event.request.method });
      if (event.request.method === 'OPTIONS') this.preflight = { sent: true, status: null };
    });
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Preflight' && !this.earlier.has(event.requestId))
        this.preflight = { sent: true, status: event.response.status };
    });
    cdp.on('Network.responseReceivedExtraInfo', (event) => {
      const request = this.requests.get(event.requestId);
      if (request && request.method !== 'OPTIONS') this.answered = true;
      if (request?.method === 'OPTIONS') this.preflight = { sent: true, status: event.statusCode };
    });
    cdp.on('Network.requestWillBeSentExtraInfo', (event) => {
      if (this.earlier.has(event.requestId)) return;
      this.cookiesOf.set(
        event.requestId,
        event.associatedCookies.map(({ cookie, blockedReasons }) => ({ name: cookie.name, reasons: blockedReasons })),
      );
    });
    cdp.on('Network.loadingFailed', (event) => {
      if (this.earlier.has(event.requestId) || this.requests.get(event.requestId)?.method === 'OPTIONS') return;
      // A refusal of the answer's own headers means the answer came: said here at once, where
      // the answer's extra info may come after the page has its result.
      if (event.corsErrorStatus && ANSWER_REFUSALS.has(event.corsErrorStatus.corsError)) this.answered = true;
      if (event.corsErrorStatus) {
        this.corsError = event.corsErrorStatus.corsError;
        this.corsParameter = event.corsErrorStatus.failedParameter || null;
      }
      if (event.blockedReason) this.blockedReason = event.blockedReason;
    });
  }

  /** The cookies of the send's request (not its preflight, which carries none): null when Chromium said nothing. */
  cookies(): EngineReport['cookies'] {
    const id = [...this.requests].find(([, request]) => request.method !== 'OPTIONS')?.[0];
    const decided = id === undefined ? undefined : this.cookiesOf.get(id);
    if (!decided) return null;
    return {
      sent: decided.filter(({ reasons }) => reasons.length === 0).map(({ name }) => name),
      withheld: decided
        .filter(({ reasons }) => reasons.length > 0)
        .map(({ name, reasons }) => ({ name, reason: reasons.join(', ') })),
    };
  }

  reset(): void {
    for (const id of [...this.requests.keys(), ...this.cookiesOf.keys()]) this.earlier.add(id);
    for (const id of this.earlier) {
      if (this.earlier.size <= EARLIER_IDS) break;
      this.earlier.delete(id);
    }
    this.cookiesOf.clear();
    this.requests.clear();
    this.preflight = { sent: false, status: null };
    this.answered = false;
    this.corsError = this.corsParameter = this.blockedReason = null;
  }
}
