import { h, scrollBox, stackable } from '../frame/dom.js';
import type { EngineCell, EngineTable } from '../rules/engine-rows.js';
import { ENGINE_LABELS, ENGINE_ORDER } from './compare.js';

/** One engine's cell: the outcome as the page shows it, whether the server saw the request, and why. */
function cell({ outcome, arrived, said }: EngineCell): HTMLTableCellElement {
  const reached = arrived === undefined ? '' : arrived ? ' \u00b7 reached the server' : ' \u00b7 never left';
  return h('td', {}, h('code', {}, outcome), h('small', {}, reached), h('br', {}), said);
}

/** A page's experiments, engine by engine, appended to parent. */
export function renderEngineTable(parent: HTMLElement, table: EngineTable): void {
  parent.append(
    scrollBox(
      table.caption,
      stackable(
        h(
          'table',
          { id: `${table.page}-table`, class: 'engines' },
          h('caption', {}, table.caption),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, 'Experiment'),
              ...ENGINE_ORDER.map((engine) => h('th', { scope: 'col' }, ENGINE_LABELS[engine])),
            ),
          ),
          h(
            'tbody',
            {},
            ...table.rows.map((row) =>
              h(
                'tr',
                { id: `${table.page}-${row.experiment}` },
                h(
                  'th',
                  { scope: 'row' },
                  h('a', { href: `/${table.page}.html#${row.experiment}` }, row.experiment),
                  h('br', {}),
                  h('small', {}, row.asks),
                ),
                ...ENGINE_ORDER.map((engine) => cell(row.engines[engine])),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
