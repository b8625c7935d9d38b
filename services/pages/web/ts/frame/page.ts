import { engineFamily, type EngineFamily } from '../rules/engine.js';
import { h, byId } from './dom.js';
import { currentSite, type SiteOrigins } from './site.js';
import { renderStrip } from './strip.js';
import { installWaterfall, renderWaterfall } from './waterfall.js';

export interface PageContext {
  site: SiteOrigins;
  engine: EngineFamily;
  /** The other origin, or an error explaining that this host has no partner. */
  other(): string;
  experiments: HTMLElement;
}

/**
 * Common frame of every page, below the navigation the build wrote into the header (from
 * src/page-table.ts): the two origins labelled at run time, a link to the same page on the other
 * host, the instrumentation strip and the waterfall. The waterfall wraps fetch and XHR before
 * any experiment runs.
 */
export function setupPage(): PageContext {
  const site = currentSite();
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
  renderWaterfall(byId('waterfall'));
  return {
    site,
    engine: engineFamily(navigator.userAgent),
    other() {
      if (!site.other) throw new Error(`no other origin is configured for ${location.host}`);
      return site.other;
    },
    experiments: byId('experiments'),
  };
}
