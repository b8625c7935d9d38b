import { h, scrollBox, stackable } from '../frame/dom.js';
import { LOCAL_NETWORK_ENGINES, type LocalNetworkCell } from '../rules/local-network-engines.js';
import { ENGINE_LABELS, ENGINE_ORDER } from './compare.js';

/** One engine's cell: the outcome as the page shows it, whether the server saw the request, and why. */
function cell({ outcome, arrived, said }: LocalNetworkCell): HTMLTableCellElement {
  const reached = arrived === undefined ? '' : arrived ? ' \u00b7 reached the server' : ' \u00b7 never left';
  return h('td', {}, h('code', {}, outcome), h('small', {}, reached), h('br', {}), said);
}

/** The Local Network Access page's experiments, engine by engine, appended to parent. */
export function renderLocalNetworkTable(parent: HTMLElement): void {
  parent.append(
    scrollBox(
      'Local Network Access, engine by engine',
      stackable(
        h(
          'table',
          { id: 'local-network-table', class: 'engines' },
          h('caption', {}, 'Each Local Network Access experiment, the page counted public and the user saying no'),
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
            ...LOCAL_NETWORK_ENGINES.map((row) =>
              h(
                'tr',
                { id: `local-network-${row.experiment}` },
                h(
                  'th',
                  { scope: 'row' },
                  h('a', { href: `/local-network.html#${row.experiment}` }, row.experiment),
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
