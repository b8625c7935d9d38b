import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from '@playwright/test';
import { harFromMessages } from 'chrome-har';

/**
 * The evidence people bring to the explainer, made here from real exchanges: a DevTools-style HAR
 * built from Chromium's protocol events (chrome-har, the converter sitespeed.io and Browsertime
 * use), and `curl -v` of the same requests. Playwright's own HAR recorder is the third
 * (browser.newContext({ recordHar })).
 */

interface CdpEvent {
  method: string;
  params: any;
}

/** The protocol events chrome-har reads, and those that tell of the requests it leaves out. */
const EVENTS = [
  'Page.loadEventFired',
  'Page.domContentEventFired',
  'Page.frameStartedLoading',
  'Page.frameAttached',
  'Page.frameScheduledNavigation',
  'Page.navigatedWithinDocument',
  'Network.requestWillBeSent',
  'Network.requestWillBeSentExtraInfo',
  'Network.requestServedFromCache',
  'Network.dataReceived',
  'Network.responseReceived',
  'Network.responseReceivedExtraInfo',
  'Network.resourceChangedPriority',
  'Network.loadingFinished',
  'Network.loadingFailed',
];

/** A request as it went out on the wire, and whether anything answered it. */
export interface SentRequest {
  method: string;
  url: string;
  headers: { name: string; value: string }[];
  answered: boolean;
}

/**
 * Starts listening to a Chromium page's protocol events. take() gives what it heard since the last
 * take: the DevTools-style HAR, and the requests in the order they went out on the wire, each with
 * the headers Chromium sent (the protocol's requestWillBeSentExtraInfo): a preflight before its request.
 */
export async function devtoolsRecorder(
  context: BrowserContext,
  page: Page,
): Promise<{ settle: () => Promise<void>; take: () => { har: string; sent: SentRequest[] } }> {
  const cdp = await context.newCDPSession(page);
  let events: CdpEvent[] = [];
  for (const method of EVENTS)
    cdp.on(method as 'Network.requestWillBeSent', (params) => events.push({ method, params }));
  await cdp.send('Page.enable');
  await cdp.send('Network.enable');
  return {
    settle: () => quiet(() => events.length),
    take() {
      const heard = events;
      events = [];
      return { har: JSON.stringify(devtoolsHar(heard)), sent: sentOnWire(heard) };
    },
  };
}

/**
 * Waits until no protocol event has come for QUIET_MS (at most SETTLE_MS): the headers as sent
 * and as answered (the ...ExtraInfo events) come from the network service apart from the rest, and
 * may come after the page has its answer (seen: a redirect's last hop, whose request was then
 * listed with the first hop's headers).
 */
async function quiet(heard: () => number): Promise<void> {
  const QUIET_MS = 150;
  const SETTLE_MS = 2_000;
  const started = Date.now();
  let count = heard();
  let still = Date.now();
  while (Date.now() - started < SETTLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (heard() !== count) [count, still] = [heard(), Date.now()];
    else if (Date.now() - still >= QUIET_MS) return;
  }
}

/** Each request's network events by request id, each event's params under its name (requestWillBeSent, ...). */
function byRequest(events: CdpEvent[]): Map<string, Partial<Record<string, any>>> {
  const byId = new Map<string, Partial<Record<string, any>>>();
  for (const { method, params } of events) {
    if (!method.startsWith('Network.')) continue;
    const seen = byId.get(params.requestId) ?? {};
    seen[method.slice('Network.'.length)] = params;
    byId.set(params.requestId, seen);
  }
  return byId;
}

function sentOnWire(events: CdpEvent[]): SentRequest[] {
  const byId = byRequest(events);
  const wireOrder = events
    .filter(({ method }) => method === 'Network.requestWillBeSentExtraInfo')
    .map(({ params }) => params.requestId as string);
  return wireOrder.flatMap((id) => {
    const seen = byId.get(id)!;
    if (!seen.requestWillBeSent) return [];
    return [
      {
        method: seen.requestWillBeSent.request.method as string,
        url: seen.requestWillBeSent.request.url as string,
        headers: Object.entries(seen.requestWillBeSentExtraInfo!.headers as Record<string, string>).map(
          ([name, value]) => ({ name, value }),
        ),
        answered: seen.responseReceivedExtraInfo !== undefined,
      },
    ];
  });
}

/**
 * chrome-har's HAR of the events, with the requests it drops added: it keeps only requests that
 * finished, while DevTools lists a failed one too, with the answer's status and headers when the
 * server answered (the protocol's responseReceivedExtraInfo) and the error.
 */
function devtoolsHar(events: CdpEvent[]): { log: { entries: unknown[] } } {
  // Two of chrome-har's slips, put right as DevTools shows the same exchanges:
  // - a redirect chain is one request id, and chrome-har gives its last answer the raw headers of
  //   the first (the redirect's); those are in the next requestWillBeSent's redirectResponse anyway;
  // - a revalidated answer keeps the kept answer's status (200), where the wire said 304;
  // - a request whose headers as sent came before the request itself keeps only its provisional
  //   ones (no Origin, no Sec-Fetch-*): DevTools shows the headers sent.
  const redirectHeaders = (event: CdpEvent) =>
    event.method === 'Network.responseReceivedExtraInfo' &&
    event.params.statusCode >= 300 &&
    event.params.statusCode < 400 &&
    event.params.statusCode !== 304;
  const har = harFromMessages(
    events.filter((event) => !redirectHeaders(event)),
    { includeResourcesFromDiskCache: true },
  ) as { log: { entries: unknown[] } };
  const onWire = byRequest(events);
  type Entry = {
    _requestId?: string;
    request: { headers: { name: string; value: string }[] };
    response: { status: number };
  };
  const entries = har.log.entries as Entry[];
  const chains = new Map<string, number>();
  // chrome-har renames each earlier hop of a redirect chain with an "r" after the request id.
  const chainOf = (id: string) => id.replace(/r+$/, '');
  for (const { _requestId: id } of entries) if (id) chains.set(chainOf(id), (chains.get(chainOf(id)) ?? 0) + 1);
  // The headers each hop of a chain was sent with, in hop order: the protocol reports a chain's
  // hops under one id, each hop's after the one before it was answered.
  const hopHeaders = new Map<string, Record<string, string>[]>();
  for (const { method, params } of events)
    if (method === 'Network.requestWillBeSentExtraInfo')
      hopHeaders.set(params.requestId, [...(hopHeaders.get(params.requestId) ?? []), params.headers]);
  for (const entry of entries) {
    if (!entry._requestId) continue;
    // A redirect chain shares one id, and chrome-har may give a hop another hop's headers as sent
    // (measured, either way round): each hop takes its own, by its place in the chain (an earlier
    // hop has one "r" more per hop after it), else the first of each name.
    // An earlier hop (its id ends in "r") is one even when chrome-har dropped the hops after it
    // (a chain that failed at its last hop: that hop is added below).
    const chain = chainOf(entry._requestId);
    const chained = chains.get(chain)! > 1 || entry._requestId !== chain;
    if (chained) {
      const sent = hopHeaders.get(chain) ?? [];
      const own = sent[sent.length - 1 - (entry._requestId.length - chain.length)];
      entry.request.headers = own
        ? Object.entries(own).map(([name, value]) => ({ name, value }))
        : once(entry.request.headers);
    }
    const seen = onWire.get(entry._requestId);
    if (!seen) continue;
    if (seen.responseReceivedExtraInfo?.statusCode === 304) entry.response.status = 304;
    const sentHeaders = seen.requestWillBeSentExtraInfo?.headers as Record<string, string> | undefined;
    // A header named twice was never sent so (a redirect chain chrome-har listed as one entry
    // gets its hops' headers together: seen, Origin "http://localhost:…" and "null"): the wire's.
    const names = entry.request.headers.map(({ name }) => name.toLowerCase());
    const doubled = new Set(names).size < names.length;
    const provisional = !names.includes('sec-fetch-mode');
    if (sentHeaders && !chained && (provisional || doubled))
      entry.request.headers = Object.entries(sentHeaders).map(([name, value]) => ({ name, value }));
  }
  // A request that failed after following a redirect failed at its last hop: its answer is that
  // hop's, never the redirect's, whichever of the two the protocol reported last (measured: either).
  // One that failed at the redirect itself (not followed) keeps the redirect's answer.
  const followed = new Set(
    events
      .filter((event) => event.method === 'Network.requestWillBeSent' && event.params.redirectResponse)
      .map((event) => event.params.requestId as string),
  );
  const lastHops = events.filter((event) => !(redirectHeaders(event) && followed.has(event.params.requestId)));
  for (const seen of byRequest(lastHops).values()) {
    const failed = seen.loadingFailed;
    const sent = seen.requestWillBeSent;
    if (!failed || !sent) continue;
    const headers = (record: Record<string, string> | undefined) =>
      Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));
    const answered = seen.responseReceivedExtraInfo;
    har.log.entries.push({
      startedDateTime: new Date(sent.wallTime * 1000).toISOString(),
      time: 0,
      request: {
        method: sent.request.method,
        url: sent.request.url,
        httpVersion: 'HTTP/1.1',
        headers: headers(seen.requestWillBeSentExtraInfo?.headers ?? sent.request.headers),
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: answered?.statusCode ?? 0,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: headers(answered?.headers),
        cookies: [],
        content: { size: 0, mimeType: '' },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
        _error: failed.errorText,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
      _resourceType: String(failed.type ?? '').toLowerCase(),
    });
  }
  return har;
}

/** Each header once: chrome-har lists a request's headers twice (as the page asked, and as sent). */
function once(headers: readonly { name: string; value: string }[]): { name: string; value: string }[] {
  const seen = new Set<string>();
  return headers.filter(({ name }) => !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()));
}

/** What curl is not to send as given: its own framing, and what it sets itself. */
const CURL_SETS = /^(host|connection|content-length|accept-encoding|keep-alive|transfer-encoding)$/i;

/**
 * `curl -v` of requests as an engine sent them (method, URL and every header), one after another
 * in one run (`--next`), as someone reproducing them would; its output as curl prints it.
 */
export async function curlVerbose(
  requests: readonly { method: string; url: string; headers: readonly { name: string; value: string }[] }[],
): Promise<string> {
  const args = requests.flatMap((request, index) => [
    ...(index > 0 ? ['--next'] : []),
    '-sS',
    '-v',
    '--max-time',
    '10',
    '-X',
    request.method,
    ...once(request.headers)
      .filter(({ name }) => !CURL_SETS.test(name))
      .flatMap(({ name, value }) => ['-H', `${name}: ${value}`]),
    request.url,
  ]);
  const { stdout, stderr } = await promisify(execFile)('curl', args, { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 });
  // -v writes the exchange to stderr and the body to stdout: a terminal shows them together.
  return `${stderr}\n${stdout}`;
}
