import { h } from '../frame/dom.js';
import type { TrafficEntry } from '../frame/waterfall.js';
import { fixOf } from './fix-links.js';
import type { JournalItem } from '@origin-lab/contract';
import { journalTarget } from './visitor.js';
import { explain, groupByExplanation } from './why-refused.js';

/** A page request and what the server saw of it (the server view joins them; the Why reads them). */
export interface Joined {
  request: TrafficEntry;
  preflight?: JournalItem;
  actual?: JournalItem;
}

/**
 * The Why of "What the server saw": for the cross-origin requests that failed, each reason once,
 * with the requests it covers, the fix and the playground's links. Loaded by the panel once a
 * read has failed, not with the page.
 */

/** Reasons shown at most: the latest to come. */
const MAX_REASONS = 10;

const requestLine = (request: TrafficEntry) => `${request.method} ${journalTarget(request.url)}`;

/** The Why's items for the failed requests (the page's request and the server's entries for it). */
export function whyItems(failed: readonly Joined[], pageOrigin: string): HTMLElement[] {
  const groups = groupByExplanation(failed, (j) =>
    explain(
      {
        pageOrigin,
        method: j.request.method,
        headers: j.request.headers,
        credentials: j.request.credentials,
        read: false,
        failure: j.request.failure,
        url: new URL(j.request.url, pageOrigin).href,
      },
      { preflight: j.preflight?.entry, actual: j.actual?.entry },
    ),
  );
  return groups.slice(-MAX_REASONS).map(({ explanation, items }) => {
    const latest = items[items.length - 1]!.request;
    const lines = counted(items.map((j) => requestLine(j.request)));
    return h(
      'li',
      { 'data-rule': explanation.rule, 'data-requests': String(items.length) },
      h('strong', {}, lines.length === 1 ? `${lines[0]}: ` : `${items.length} requests: `),
      explanation.text,
      explanation.handled ? ` The handler ran (status ${explanation.status}).` : ' The handler did not run.',
      ...(explanation.refusal ? fixOf(explanation.refusal, latest, pageOrigin) : []),
      lines.length === 1
        ? null
        : h(
            'details',
            {},
            h('summary', {}, `Which ${items.length} requests`),
            h('ul', {}, ...lines.map((line) => h('li', {}, line))),
          ),
    );
  });
}

/** Each distinct line once, in order, with how many times it came when more than once. */
function counted(lines: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, count]) => (count === 1 ? line : `${line} (${count} requests)`));
}
