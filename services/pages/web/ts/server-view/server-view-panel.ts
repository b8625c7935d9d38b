import type { JournalItem, ServerJournalEntry } from '@origin-lab/contract';
import { h, scrollBox } from '../frame/dom.js';
import { onTraffic, type TrafficEntry } from '../frame/waterfall.js';
import type { SiteOrigins } from '../frame/site.js';
import type { JournalFeed } from './journal-feed.js';
import { eventSourceRequests, sentByBrowser, targetOf } from './unseen.js';
import { carriesToken, eventSourceOpenings, journalTarget } from './visitor.js';
import { drawTimeline, type TimelineBar, type Tone } from './timeline.js';
import type { Joined } from './why-list.js';

/** Why each failed read failed, its fix and the playground's links: loaded once a read has failed, not with the page. */
type WhyList = typeof import('./why-list.js');

/** Journal items shown in the table; the timeline takes the same. */
const MAX_ROWS = 60;

const epochOf = (request: TrafficEntry) => performance.timeOrigin + request.startMs;

/**
 * Whether the entry came from the side the request went to: same-origin or not, where the browser
 * said so (Sec-Fetch-Site; absent outside a secure context). The journal records no host, and
 * a page calls the same path on both origins.
 */
const fromSameSide = (entry: ServerJournalEntry, request: TrafficEntry) =>
  entry.secFetch.site === null || (entry.secFetch.site === 'same-origin') === (request.role === 'this origin');

/**
 * Whether a preflight asked for this request: its method, and only headers the page set (or
 * Content-Type, which the browser sets from a body). A request the preflight cache let through
 * must not take the preflight of a later one.
 */
function asksFor(entry: ServerJournalEntry, request: TrafficEntry): boolean {
  const asked = (entry.accessControlRequest.headers ?? '').split(',').map((name) => name.trim().toLowerCase());
  return (
    entry.accessControlRequest.method === request.method &&
    asked.every((name) => name === '' || name === 'content-type' || request.headers.includes(name))
  );
}

/**
 * Joins each page request to the server's entries for the same method and target, from the same
 * side, that arrived after it started, in order: the preflight asking for it and the request.
 */
function join(requests: readonly TrafficEntry[], items: readonly JournalItem[]): Joined[] {
  const used = new Set<number>();
  return requests.map((request) => {
    const started = epochOf(request) - 1_000; // clocks of page and server may differ a little
    const wanted = journalTarget(request.url);
    const take = (match: (entry: ServerJournalEntry) => boolean) => {
      const item = items.find(
        (i) =>
          !used.has(i.id) &&
          Date.parse(i.entry.at) >= started &&
          targetOf(i.entry) === wanted &&
          fromSameSide(i.entry, request) &&
          match(i.entry),
      );
      if (item) used.add(item.id);
      return item;
    };
    // Fetch preflights cross-origin requests only: a same-origin one never takes a preflight, which
    // matters where the journal cannot tell the sides apart (no Sec-Fetch-Site outside a secure context).
    const preflight = request.role === 'this origin' ? undefined : take((e) => e.preflight && asksFor(e, request));
    const actual = take((e) => !e.preflight && e.method === request.method);
    return { request, preflight, actual };
  });
}

/**
 * A cross-origin request the journal can speak for: to the other origin (the page tags those), or
 * to another origin the page tagged itself (the Local Network Access page's other loopback address).
 */
const crossOriginJournaled = (request: TrafficEntry) =>
  request.role === 'other origin' || (request.role === 'elsewhere' && carriesToken(request.url));

/** The page got no readable answer: a rejected fetch, or an XHR ending with status 0. */
const failedRead = (request: TrafficEntry) => Boolean(request.failure) || request.status === 0;

function toneOf(request: TrafficEntry): Tone {
  if (request.status === null && !request.failure) return 'pending';
  if (request.failure?.startsWith('opaque')) return 'refused';
  return request.failure ? 'failed' : 'ok';
}

function corsSummary(entry: ServerJournalEntry): string {
  if (!entry.cors) return 'no CORS headers';
  const origin = entry.cors['access-control-allow-origin'];
  return origin ? `allows ${origin}` : 'no Allow-Origin';
}

/** One journal item as a row of the table: what arrived, and whether the page saw it (or what sent it). */
function journalRow(
  item: JournalItem,
  eventSources: ReadonlyMap<number, string>,
  seenIds: ReadonlySet<number>,
  refusedIds: ReadonlySet<number>,
): HTMLTableRowElement {
  const browser = eventSources.get(item.id) ?? sentByBrowser(item.entry);
  const seen = browser === null && seenIds.has(item.id) && !refusedIds.has(item.id);
  const unseenBecause =
    browser ??
    (refusedIds.has(item.id)
      ? 'the browser refused the read'
      : item.entry.path === '/api/beacon'
        ? 'beacon'
        : 'not through fetch or XHR');
  return h(
    'tr',
    { class: seen ? '' : 'unseen', 'data-id': String(item.id) },
    h('td', { class: 'optional' }, String(item.id)),
    h('td', {}, item.entry.method),
    h('td', { class: 'url' }, targetOf(item.entry)),
    h('td', {}, item.entry.origin ?? 'no Origin'),
    h('td', {}, String(item.entry.status)),
    h('td', { class: 'optional' }, corsSummary(item.entry)),
    h('td', {}, seen ? 'yes' : `no: ${unseenBecause}`),
  );
}

/** The timeline's bars: the latest page requests joined to the server's entries, then what the page did not see. */
function timelineBars(
  joined: readonly Joined[],
  items: readonly JournalItem[],
  seenIds: ReadonlySet<number>,
): TimelineBar[] {
  const bars: TimelineBar[] = [];
  for (const j of joined.slice(-20)) {
    const id = `page-${epochOf(j.request)}`;
    bars.push({
      id,
      side: 'page',
      label: `${j.request.method} ${journalTarget(j.request.url)}`,
      startMs: epochOf(j.request),
      endMs: j.request.durationMs === null ? null : epochOf(j.request) + j.request.durationMs,
      tone: toneOf(j.request),
    });
    for (const item of [j.preflight, j.actual]) {
      if (!item) continue;
      const start = Date.parse(item.entry.at);
      bars.push({
        id: `server-${item.id}`,
        side: 'server',
        label: `${item.entry.preflight ? 'preflight' : 'server'} ${item.entry.status}`,
        startMs: start,
        endMs: start + item.entry.durationMs,
        tone: item.entry.status >= 400 ? 'failed' : 'ok',
        joinedTo: id,
      });
    }
  }
  for (const item of items.filter((i) => !seenIds.has(i.id)).slice(-20)) {
    const start = Date.parse(item.entry.at);
    bars.push({
      id: `server-${item.id}`,
      side: 'server',
      label: `${sentByBrowser(item.entry) ?? item.entry.method} ${targetOf(item.entry)}`,
      startMs: start,
      endMs: start + item.entry.durationMs,
      tone: 'unseen',
    });
  }
  return bars;
}

/**
 * "What the server saw": this visitor's journal beside the waterfall, a timeline of both, and for
 * each cross-origin request that failed, why, computed from what the server answered.
 */
export function renderServerView(container: HTMLElement, feed: JournalFeed, site: SiteOrigins): void {
  const timeline = h('div', { class: 'timeline-box' });
  const why = h('ul', { class: 'why', 'aria-live': 'polite' });
  const rows = h('tbody');
  container.append(
    h('h2', { id: 'server-view-heading' }, 'What the server saw'),
    h(
      'p',
      { class: 'note' },
      'Every request of this page load as the api received and answered it, preflights, beacons and EventSource requests included: CORS decides what the page may read, not what reaches the server.',
    ),
    timeline,
    h('h3', {}, 'Why'),
    why,
    scrollBox(
      'What the server saw, request by request',
      h(
        'table',
        { class: 'server-view' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            // The id and the CORS answer fold away on a narrow screen (site.css).
            ...['#', 'Method', 'Target', 'From', 'Status', 'CORS answer', 'Page saw it?'].map((t) =>
              h('th', { scope: 'col', class: t === '#' || t === 'CORS answer' ? 'optional' : undefined }, t),
            ),
          ),
        ),
        rows,
      ),
    ),
  );

  let requests: readonly TrafficEntry[] = [];
  let whyList: WhyList | null = null;
  let whyListAsked = false;
  const render = () => {
    const items = feed.items.slice(-MAX_ROWS);
    const joined = join(requests, items);
    const seenIds = new Set(joined.flatMap((j) => [j.actual?.id, j.preflight?.id]).filter((id) => id !== undefined));
    const refusedIds = new Set(joined.flatMap((j) => (j.actual && failedRead(j.request) ? [j.actual.id] : [])));
    const eventSources = eventSourceRequests(feed.items, eventSourceOpenings);
    rows.replaceChildren(...items.map((item) => journalRow(item, eventSources, seenIds, refusedIds)));

    const failed = joined.filter((j) => crossOriginJournaled(j.request) && failedRead(j.request));
    if (failed.length === 0) why.replaceChildren(h('li', {}, 'No cross-origin request of this page has failed yet.'));
    else if (whyList) why.replaceChildren(...whyList.whyItems(failed, site.self));
    else if (!whyListAsked) {
      whyListAsked = true;
      void import('./why-list.js').then((loaded) => {
        whyList = loaded;
        render();
      });
    }
    drawTimeline(timeline, timelineBars(joined, items, seenIds), Date.now());
  };
  onTraffic((all) => {
    requests = all;
    render();
  });
  feed.onChange(render);
  render();
}
