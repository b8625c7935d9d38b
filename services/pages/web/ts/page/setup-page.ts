// The page's composition root: the frame (header, strip, waterfall) and the server view put
// together for one page load. It sits above both, so frame/ never imports server-view/.
import { engineFamily, type EngineFamily } from '@origin-lab/cors-rules/engine-facts';
import { h, byId } from '../frame/dom.js';
import { currentSite, type SiteOrigins } from '../frame/site.js';
import { renderStrip } from '../frame/strip.js';
import { installWaterfall, renderWaterfall } from '../frame/waterfall.js';
import { JournalFeed } from '../server-view/journal-feed.js';
import { renderServerView } from '../server-view/server-view-panel.js';
import { tagDemonstrationTraffic, visitorToken } from '../server-view/visitor.js';

export interface PageContext {
  site: SiteOrigins;
  engine: EngineFamily;
  /** The other origin, or an error explaining that this host has no partner. */
  other(): string;
  experiments: HTMLElement;
  /** This visitor's journal: what the server saw of this page load. */
  journal: JournalFeed;
  /**
   * The journal of the previous load of this page in this tab, not streamed (read it with
   * refresh or waitFor): what arrived after that page had gone, such as its pagehide beacon.
   */
  previousJournal: JournalFeed | null;
}

/** Each page load's token, per page and tab, so the next load can read what arrived after it left. */
function swapVisitorToken(): string | null {
  const key = `origin-lab:visitor:${location.pathname}`;
  try {
    const previous = sessionStorage.getItem(key);
    sessionStorage.setItem(key, visitorToken);
    return previous;
  } catch {
    return null; // Storage switched off: there is no previous visit to show.
  }
}

/**
 * Common frame of every page, below the navigation the build wrote into the header (from
 * src/page-table.ts): the two origins labelled at run time, a link to the same page on the other
 * host, the instrumentation strip and the waterfall. The waterfall wraps fetch and XHR before
 * any experiment runs. journalStream false has the journal poll even over HTTP/2 (for a page
 * that must leave with nothing open; see JournalFeed.pause).
 */
export function setupPage({ journalStream = true } = {}): PageContext {
  const site = currentSite();
  // The journal reads with the unwrapped EventSource and fetch: it is not a demonstration request.
  const unwrappedFetch = window.fetch.bind(window);
  const journal = new JournalFeed(visitorToken, unwrappedFetch);
  // A page that sends no requests has no waterfall or server view (src/page-table.ts,
  // sendsRequests): nothing to show, so its journal is never read.
  const waterfall = document.getElementById('waterfall');
  const serverView = document.getElementById('server-view');
  if (serverView) journal.start(window.EventSource, { stream: journalStream });
  const previousToken = swapVisitorToken();
  tagDemonstrationTraffic([site.self, ...(site.other ? [site.other] : [])]);
  installWaterfall(site);
  const header = byId('top');
  const here = location.pathname;
  const swapLink = site.other
    ? h(
        'a',
        { id: 'other-link', href: `${site.other}${here}${location.search}` },
        `Open this page on the other origin (${site.other})`,
      )
    : null;
  header.append(
    h(
      'p',
      { class: 'origins' },
      'This origin: ',
      h('strong', { id: 'origin-self' }, site.self),
      ' \u2014 the other origin: ',
      h('strong', { id: 'origin-other' }, site.other ?? 'none (this host is not in SITE_PAIRS)'),
      '. ',
      swapLink,
    ),
  );
  const strip = h('section', { 'aria-label': 'Instrumentation' });
  header.append(strip);
  renderStrip(strip);
  if (waterfall) renderWaterfall(waterfall);
  if (serverView) renderServerView(serverView, journal, site);
  return {
    site,
    engine: engineFamily(navigator.userAgent),
    other() {
      if (!site.other) throw new Error(`no other origin is configured for ${location.host}`);
      return site.other;
    },
    experiments: byId('experiments'),
    journal,
    previousJournal: previousToken ? new JournalFeed(previousToken, unwrappedFetch) : null,
  };
}
