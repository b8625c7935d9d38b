import type { EngineOutcome, EngineRecord } from '@origin-lab/contract';
import { PLAYGROUND_PATH } from '@origin-lab/cors-rules/playground-address';
import { byId, h, stackable } from '../frame/dom.js';
import { setupPage } from '../page/setup-page.js';
import {
  ENGINE_LABELS,
  ENGINE_ORDER,
  casesByEngine,
  loadEngineRecords,
  loadRecordedStacks,
  outcomesDiffer,
  recordOf,
  recordsOfStack,
  type EngineCase,
} from '../engines/compare.js';
import { outcomePhrases } from '../engines/outcome-view.js';
import { renderPageDifferences } from '../engines/page-differences.js';
import { PRESETS } from '../playground/presets.js';

setupPage();
renderPageDifferences(byId('page-differences'));

/**
 * Two pages' experiments engine by engine, each table loaded when its section is opened: with
 * them the page would weigh more than its 100 KB, and most readers come for the cases.
 */
const EXPERIMENT_TABLES = {
  'local-network-engines': () => import('../rules/local-network-engines.js').then((m) => m.LOCAL_NETWORK_ENGINES),
  'sign-in-engines': () => import('../rules/sign-in-engines.js').then((m) => m.SIGN_IN_ENGINES),
};
for (const [id, load] of Object.entries(EXPERIMENT_TABLES)) {
  const details = byId(id).querySelector('details')!;
  details.addEventListener('toggle', () => {
    if (!details.open || details.dataset.loaded) return;
    details.dataset.loaded = 'true';
    void Promise.all([import('../engines/engine-table.js'), load()]).then(([{ renderEngineTable }, table]) =>
      renderEngineTable(details, table),
    );
  });
}

const VERDICTS: Record<EngineOutcome['agreement'], { sign: string; text: string }> = {
  agree: { sign: '\u2714', text: 'as the spec says' },
  'known-difference': { sign: '\u2248', text: 'a known difference from the spec' },
  disagree: { sign: '\u2718', text: 'not as the spec says' },
};

/** One engine's cell: the verdict, then the outcome's phrases, those where other engines did otherwise marked. */
function cell({ engine, outcome }: EngineCase, cases: EngineCase[]): HTMLTableCellElement {
  if (!outcome) return h('td', {}, 'not recorded on this stack');
  const verdict = VERDICTS[outcome.agreement];
  return h(
    'td',
    { class: `verdict-${outcome.agreement}` },
    h('span', { class: 'verdict', title: verdict.text }, `${verdict.sign} `),
    h('span', { class: 'visually-hidden' }, `${verdict.text}: `),
    ...outcomePhrases(engine, outcome, cases),
  );
}

/** A column per engine, in ENGINE_ORDER, whether or not this stack has its record. */
function render(records: EngineRecord[], stack: string): void {
  const shown = recordsOfStack(records, stack);
  byId('versions').textContent = ENGINE_ORDER.map((engine) => {
    const record = recordOf(shown, engine);
    return record
      ? `${ENGINE_LABELS[engine]} ${record.version}, recorded ${record.recordedAt.slice(0, 10)}`
      : `${ENGINE_LABELS[engine]} not recorded on this stack`;
  }).join('; ');
  byId('engines-head').replaceChildren(
    h('th', { scope: 'col' }, 'Case'),
    ...ENGINE_ORDER.map((engine) => h('th', { scope: 'col' }, ENGINE_LABELS[engine])),
  );
  const table = byId<HTMLTableElement>('engines');
  for (const body of Array.from(table.tBodies)) body.remove();
  let differing = 0;
  // The cases sent on this stack: every one, or on lan those a secure context changes.
  const sent = PRESETS.filter((preset) => shown.some((record) => preset.id in record.cases));
  for (const group of new Set(sent.map((preset) => preset.group))) {
    const rows = sent
      .filter((preset) => preset.group === group)
      .map((preset) => {
        const cases = casesByEngine(shown, preset.id);
        const differs = outcomesDiffer(cases.map(({ outcome }) => outcome));
        if (differs) differing++;
        return h(
          'tr',
          { class: differs ? 'differs' : undefined, id: `case-${preset.id}` },
          h(
            'th',
            { scope: 'row' },
            h('a', { href: `${PLAYGROUND_PATH}#${preset.fragment}` }, preset.name),
            differs ? h('span', { class: 'differs-mark' }, ' \u2260 the engines differ') : '',
          ),
          ...cases.map((one) => cell(one, cases)),
        );
      });
    table.append(
      h(
        'tbody',
        {},
        h('tr', {}, h('th', { scope: 'rowgroup', colspan: String(ENGINE_ORDER.length + 1), class: 'group' }, group)),
        ...rows,
      ),
    );
  }
  stackable(table);
  const offSpec = shown.map(
    (record) =>
      `${ENGINE_LABELS[record.engine]} ${Object.values(record.cases).filter((outcome) => outcome.agreement !== 'agree').length}`,
  );
  const cases =
    sent.length === PRESETS.length
      ? `${PRESETS.length} ready cases`
      : `${sent.length} of the ${PRESETS.length} ready cases sent on this stack`;
  byId('summary').textContent =
    `${cases}; the engines differ in ${differing}. Cases where an engine parts from the spec: ${offSpec.join(', ')}.`;
}

// One stack's records at a time: each is a fair share of the page's weight, and most readers look at one.
const loaded = new Map<string, Promise<EngineRecord[]>>();
const show = async (stack: string) => {
  if (!loaded.has(stack)) loaded.set(stack, loadEngineRecords({ stack }));
  render((await loaded.get(stack)) ?? [], stack);
};
const stacks = await loadRecordedStacks();
const select = byId<HTMLSelectElement>('stack');
select.append(...stacks.map((stack) => h('option', { value: stack }, stack)));
select.addEventListener('change', () => void show(select.value));
if (stacks.length === 0) byId('summary').textContent = 'No engine records were built into this site.';
else await show(stacks[0] as string);
