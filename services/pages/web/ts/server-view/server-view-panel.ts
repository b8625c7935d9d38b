import type { JournalItem, ServerJournalEntry } from '@origin-lab/contract';
import { h, scrollBox } from '../frame/dom.js';
import { onTraffic, type TrafficEntry } from '../frame/waterfall.js';
import type { SiteOrigins } from '../frame/site.js';
import type { JournalFeed } from './journal-feed.js';
import { eventSourceRequests, sentByBrowser, targetOf } from './unseen.js';
import { carriesToken, eventSourceOpenings, journalTarget } from './visitor.js';
import { drawTimeline, type TimelineBar, type Tone } from './timeline.js';
import { explain } from './why-refused.js';

/** The fix and the playground's links for a refusal: loaded once a read has failed, not with the page. */
type FixLinks = typeof import('./fix-links.js');

/** Journal items shown in the table; the timeline takes the same. */
const MAX_ROWS = 60;

/** A page request and what the server saw of it. */
interface Joined {
  request: TrafficEntry;
  preflight?: JournalItem;
  actual?: JournalItem;
}

const epochOf = (request: TrafficEntry) => performance.timeOrigin + request.startMs;

/**
 * Joins each page request to the server's entries for the same method and target that arrived
 * after it started, in order: the preflight (OPTIONS asking for that method) and the request.
 */
function join(requests: readonly TrafficEntry[], items: readonly JournalItem[]): Joined[] {
  const used = new Set<number>();
  return requests.map((request) => {
    const started = epochOf(request) - 1_000; // clocks of page and server may differ a little
    const wanted = journalTarget(request.url);
    const take = (match: (entry: ServerJournalEntry) => boolean) => {
      const item = items.find((i) => !used.has(i.id) && Date.parse(i.entry.at) >= started && match(i.entry));
      if (item) used.add(item.id);
      return item;
    };
    const preflight = take(
      (e) => e.preflight && e.accessControlRequest.method === request.method && targetOf(e) === wanted,
    );
    const actual = take((e) => !e.preflight && e.method === request.method && targetOf(e) === wanted);
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
  let fixLinks: FixLinks | null = null;
  let fixLinksAsked = false;
  const render = () => {
    const items = feed.items.slice(-MAX_ROWS);
    const joined = join(requests, items);
    const seenIds = new Set(joined.flatMap((j) => [j.actual?.id, j.preflight?.id]).filter((id) => id !== undefined));
    const refusedIds = new Set(joined.flatMap((j) => (j.actual && failedRead(j.request) ? [j.actual.id] : [])));
    const eventSources = eventSourceRequests(feed.items, eventSourceOpenings);
    rows.replaceChildren(
      ...items.map((item) => {
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
      }),
    );

    const failed = joined.filter((j) => crossOriginJournaled(j.request) && failedRead(j.request));
    why.replaceChildren(
      ...failed.slice(-10).map((j) => {
        const explanation = explain(
          {
            pageOrigin: site.self,
            method: j.request.method,
            headers: j.request.headers,
            credentials: j.request.credentials,
            read: false,
          },
          { preflight: j.preflight?.entry, actual: j.actual?.entry },
        );
        return h(
          'li',
          { 'data-rule': explanation.rule },
          h('strong', {}, `${j.request.method} ${journalTarget(j.request.url)}: `),
          explanation.text,
          explanation.handled ? ` The handler ran (status ${explanation.status}).` : ' The handler did not run.',
          ...(fixLinks && explanation.refusal ? fixLinks.fixOf(explanation.refusal, j.request, site.self) : []),
        );
      }),
    );
    if (failed.length === 0) why.replaceChildren(h('li', {}, 'No cross-origin request of this page has failed yet.'));
    else if (!fixLinksAsked) {
      fixLinksAsked = true;
      void import('./fix-links.js').then((loaded) => {
        fixLinks = loaded;
        render();
      });
    }

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
    drawTimeline(timeline, bars, Date.now());
  };
  onTraffic((all) => {
    requests = all;
    render();
  });
  feed.onChange(render);
  render();
}
