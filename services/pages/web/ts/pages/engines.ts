import type { EngineOutcome, EngineRecord } from '@origin-lab/contract';
import { byId, h } from '../frame/dom.js';
import { setupPage } from '../page/setup-page.js';
import {
  ENGINE_LABELS,
  loadEngineRecords,
  loadRecordedStacks,
  outcomesDiffer,
  recordsOfStack,
} from '../engines/compare.js';
import { outcomePhrases } from '../engines/outcome-view.js';
import { PRESETS } from '../playground/presets.js';

setupPage();

const VERDICTS: Record<EngineOutcome['agreement'], { sign: string; text: string }> = {
  agree: { sign: '\u2714', text: 'as the spec says' },
  'known-difference': { sign: '\u2248', text: 'a known difference from the spec' },
  disagree: { sign: '\u2718', text: 'not as the spec says' },
};

/** One engine's cell: the verdict, then the outcome's phrases, those that differ from the other engine marked. */
function cell(outcome: EngineOutcome | undefined, other: EngineOutcome | undefined): HTMLTableCellElement {
  if (!outcome) return h('td', {}, 'not recorded');
  const verdict = VERDICTS[outcome.agreement];
  return h(
    'td',
    { class: `verdict-${outcome.agreement}` },
    h('span', { class: 'verdict', title: verdict.text }, `${verdict.sign} `),
    h('span', { class: 'visually-hidden' }, `${verdict.text}: `),
    ...outcomePhrases(outcome, other),
  );
}

function render(records: EngineRecord[], stack: string): void {
  const shown = recordsOfStack(records, stack);
  byId('versions').textContent = shown
    .map((record) => `${ENGINE_LABELS[record.engine]} ${record.version}, recorded ${record.recordedAt.slice(0, 10)}`)
    .join('; ');
  byId('engines-head').replaceChildren(
    h('th', { scope: 'col' }, 'Case'),
    ...shown.map((record) => h('th', { scope: 'col' }, ENGINE_LABELS[record.engine])),
  );
  const table = byId<HTMLTableElement>('engines');
  for (const body of Array.from(table.tBodies)) body.remove();
  let differing = 0;
  for (const group of new Set(PRESETS.map((preset) => preset.group))) {
    const rows = PRESETS.filter((preset) => preset.group === group).map((preset) => {
      const outcomes = shown.map((record) => record.cases[preset.id]);
      const [first, second] = outcomes;
      const differs = first !== undefined && second !== undefined && outcomesDiffer(first, second);
      if (differs) differing++;
      return h(
        'tr',
        { class: differs ? 'differs' : undefined, id: `case-${preset.id}` },
        h(
          'th',
          { scope: 'row' },
          h('a', { href: `/playground.html#${preset.fragment}` }, preset.name),
          differs ? h('span', { class: 'differs-mark' }, ' \u2260 the engines differ') : '',
        ),
        ...outcomes.map((outcome, index) => cell(outcome, outcomes[1 - index])),
      );
    });
    table.append(
      h(
        'tbody',
        {},
        h('tr', {}, h('th', { scope: 'rowgroup', colspan: String(shown.length + 1), class: 'group' }, group)),
        ...rows,
      ),
    );
  }
  const offSpec = shown.map(
    (record) =>
      `${ENGINE_LABELS[record.engine]} ${Object.values(record.cases).filter((outcome) => outcome.agreement !== 'agree').length}`,
  );
  byId('summary').textContent =
    `${PRESETS.length} ready cases; the engines differ in ${differing}. Cases where an engine parts from the spec: ${offSpec.join(', ')}.`;
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
