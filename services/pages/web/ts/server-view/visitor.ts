/**
 * This page load's visitor token, and the tagging that puts it in the URL of every demonstration
 * request: fetch, XMLHttpRequest, EventSource and sendBeacon to /api/ on either origin. A URL is
 * the only part of a request that preflights, beacons and EventSource requests carry too, so the
 * server can file each of them under this visitor.
 */

export const VISITOR_PARAMETER = 'visitor';

/** 128 random bits, base64url: unguessable, so a visitor reads only its own journal. */
export const visitorToken: string = makeToken();

function makeToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The CORS, stream and MCP labs: their requests are demonstration requests too. */
const LAB_PATHS = ['/lab/cors', '/lab/stream', '/lab/mcp'];
const isDemonstrationPath = (path: string) => path.startsWith('/api/') || LAB_PATHS.includes(path);

/** The URL with this visitor's token added, when it goes to /api/ or a lab on one of the given origins. */
export function tagUrl(url: string, origins: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url, location.href);
  } catch {
    return url; // Let the API under test report the bad URL itself.
  }
  if (!origins.includes(parsed.origin) || !isDemonstrationPath(parsed.pathname)) return url;
  if (parsed.searchParams.has(VISITOR_PARAMETER)) return url;
  parsed.searchParams.append(VISITOR_PARAMETER, visitorToken);
  return parsed.href;
}

/**
 * A URL's path and query as the server's journal records them (targetOf): this page load's
 * token taken out, the rest as written. The journal leaves the token out of every entry; a page
 * that tags a URL itself (tagUrl, for an origin the page does not tag) hands its waterfall the
 * tagged URL, which must still be matched with the server's entry.
 */
export function journalTarget(url: string, base: string = location.href, token: string = visitorToken): string {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return url;
  }
  const tag = `${VISITOR_PARAMETER}=${token}`;
  const query = parsed.search
    .slice(1)
    .split('&')
    .filter((parameter) => parameter !== tag)
    .join('&');
  return parsed.pathname + (query ? `?${query}` : '');
}

/** Whether the URL carries this page load's token: a request the server files in this visitor's journal. */
export function carriesToken(url: string, base: string = location.href, token: string = visitorToken): boolean {
  try {
    return new URL(url, base).searchParams.get(VISITOR_PARAMETER) === token;
  } catch {
    return false;
  }
}

/** Each EventSource the page created: its target (path and query, as the journal records them) and when. */
export interface EventSourceOpening {
  target: string;
  atMs: number;
}
export const eventSourceOpenings: EventSourceOpening[] = [];
/** Openings kept; a page creates a handful. */
const MAX_OPENINGS = 100;

function recordOpening(url: string): void {
  try {
    const parsed = new URL(url, location.href);
    eventSourceOpenings.push({ target: parsed.pathname + parsed.search, atMs: Date.now() });
    if (eventSourceOpenings.length > MAX_OPENINGS) eventSourceOpenings.shift();
  } catch {
    // The constructor itself reports a bad URL.
  }
}

/**
 * Wraps fetch, XMLHttpRequest.open, EventSource and navigator.sendBeacon so that every request
 * to the given origins' /api/ carries the token. Install it before anything else wraps them (the
 * waterfall), so what the page shows is the URL the experiment wrote.
 */
export function tagDemonstrationTraffic(origins: readonly string[]): void {
  const originalFetch = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    if (input instanceof Request) {
      const tagged = tagUrl(input.url, origins);
      return originalFetch(tagged === input.url ? input : new Request(tagged, input), init);
    }
    return originalFetch(tagUrl(String(input), origins), init);
  };

  const { open } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function (
    this: XMLHttpRequest,
    method: string,
    url: string | URL,
    ...rest: unknown[]
  ) {
    return (open as (...args: unknown[]) => void).call(this, method, tagUrl(String(url), origins), ...rest);
  } as typeof open;

  const OriginalEventSource = window.EventSource;
  window.EventSource = class extends OriginalEventSource {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(tagUrl(String(url), origins), init);
      recordOpening(String(url));
    }
  };

  if (typeof navigator.sendBeacon === 'function') {
    const sendBeacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url: string | URL, data?: BodyInit | null) =>
      sendBeacon(tagUrl(String(url), origins), data);
  }
}
