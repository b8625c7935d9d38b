import { h, scrollBox, stackable } from '../frame/dom.js';
import type { EngineFamily } from '@origin-lab/cors-rules';
import { KNOWN_DIFFERENCES, type KnownDifference } from '../rules/known-differences.js';
import { LOCAL_NETWORK_DIFFERENCES } from '../rules/local-network-differences.js';
import { SIGN_IN_DIFFERENCES } from '../rules/sign-in-differences.js';

/** Every listed difference: the pages' list and the Local Network Access and sign-in pages' own. */
export const ALL_DIFFERENCES: readonly KnownDifference[] = [
  ...KNOWN_DIFFERENCES,
  ...LOCAL_NETWORK_DIFFERENCES,
  ...SIGN_IN_DIFFERENCES,
];
import { ENGINE_LABELS, ENGINE_ORDER } from './compare.js';

/** The table's columns after the experiment: one per engine, in the order and words of the engines page. */
export function differenceColumns(): string[] {
  return ENGINE_ORDER.map((engine) => ENGINE_LABELS[engine]);
}

/** One experiment with a known difference in at least one engine: its link and, per engine, the difference (null: as the spec says). */
export interface DifferenceRow {
  page: string;
  experiment: string;
  href: string;
  cells: Record<EngineFamily, KnownDifference | null>;
}

/** One row per experiment, in the list's order, each engine's difference in its column. */
export function differenceRows(list: readonly KnownDifference[] = ALL_DIFFERENCES): DifferenceRow[] {
  const rows = new Map<string, DifferenceRow>();
  for (const difference of list) {
    const key = `${difference.page}#${difference.experiment}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        page: difference.page,
        experiment: difference.experiment,
        href: `/${difference.page}.html#${difference.experiment}`,
        cells: Object.fromEntries(ENGINE_ORDER.map((engine) => [engine, null])) as DifferenceRow['cells'],
      };
      rows.set(key, row);
    }
    row.cells[difference.engine] = difference;
  }
  return [...rows.values()];
}

function cell(difference: KnownDifference | null): HTMLTableCellElement {
  if (!difference)
    return h(
      'td',
      { class: 'verdict-agree' },
      h('span', { class: 'verdict', 'aria-hidden': 'true' }, '\u2714 '),
      'as the spec says',
    );
  const [sign, verdict] = difference.departsFromSpec
    ? ['\u2248', 'a known difference from the spec']
    : ['\u2260', 'within the spec, unlike the other engines'];
  return h(
    'td',
    { class: difference.departsFromSpec ? 'verdict-known-difference' : 'verdict-allowed' },
    h('span', { class: 'verdict', title: verdict }, `${sign} `),
    h('span', { class: 'visually-hidden' }, `${verdict}: `),
    difference.did,
    h('small', {}, ` (measured in ${difference.measured})`),
  );
}

/** The table of the pages' known engine differences, appended to parent. */
export function renderPageDifferences(parent: HTMLElement): void {
  const rows = differenceRows();
  parent.append(
    scrollBox(
      'Known engine differences on the pages',
      stackable(
        h(
          'table',
          { id: 'page-differences-table', class: 'engines' },
          h('caption', {}, 'Known engine differences on the demonstration pages, experiment by experiment'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, 'Page: experiment'),
              ...differenceColumns().map((label) => h('th', { scope: 'col' }, label)),
            ),
          ),
          h(
            'tbody',
            {},
            ...rows.map((row) =>
              h(
                'tr',
                { id: `difference-${row.page}-${row.experiment}` },
                h('th', { scope: 'row' }, h('a', { href: row.href }, `${row.page}: ${row.experiment}`)),
                ...ENGINE_ORDER.map((engine) => cell(row.cells[engine])),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
