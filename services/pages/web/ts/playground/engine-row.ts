import type { EngineRecord } from '@origin-lab/contract';
import { byId, h } from '../frame/dom.js';
import { ENGINE_LABELS, casesByEngine, loadEngineRecords, recordOf } from '../engines/compare.js';
import { outcomePhrases } from '../engines/outcome-view.js';
import type { CaseForm } from './case-form.js';
import { PRESETS, type Preset } from './presets.js';

/**
 * "Chromium did this, Firefox that, WebKit (GTK) that" for the case the form holds, when it is a
 * ready case: from the e2e suite's records, each case's fetched the first time the form holds it.
 */
export function engineRow(form: CaseForm): () => Promise<void> {
  const recordsByCase = new Map<string, Promise<EngineRecord[]>>();
  /** Each ready case by its canonical fragment: how the page knows which one the form holds. */
  const presetByFragment = new Map<string, Preset>(
    PRESETS.map((preset) => [form.canonical(new URLSearchParams(preset.fragment)), preset]),
  );
  /** The ready case the form holds, if it holds one exactly. */
  const currentPreset = (): Preset | undefined => presetByFragment.get(form.fragment());

  return async function showEngineRow(): Promise<void> {
    const preset = currentPreset();
    const row = byId('engine-row');
    const allCases = h('a', { href: '/engines.html' }, 'Every ready case in each engine');
    if (!preset) {
      row.replaceChildren(
        h('p', {}, 'The engines are recorded for the ready cases; this case is not one of them. ', allCases, '.'),
      );
      return;
    }
    if (!recordsByCase.has(preset.id))
      recordsByCase.set(
        preset.id,
        loadEngineRecords({ caseId: preset.id, scheme: location.protocol.replace(':', '') }),
      );
    // One stack's: the one for this page's scheme.
    const records = (await recordsByCase.get(preset.id)) ?? [];
    // The form may have moved on while the records came.
    if (currentPreset() !== preset) return;
    const cases = casesByEngine(records, preset.id);
    if (cases.every(({ outcome }) => outcome === undefined)) {
      row.replaceChildren(h('p', {}, `\u201c${preset.name}\u201d has no engine records yet. `, allCases, '.'));
      return;
    }
    row.replaceChildren(
      h('p', {}, `\u201c${preset.name}\u201d, as the e2e suite recorded it (stack ${records[0]?.stack ?? ''}):`),
      h(
        'ul',
        {},
        ...cases.map(({ engine, outcome }) => {
          const record = recordOf(records, engine);
          return h(
            'li',
            {},
            h('strong', {}, record ? `${ENGINE_LABELS[engine]} ${record.version}` : ENGINE_LABELS[engine]),
            ': ',
            ...(outcome
              ? outcomePhrases(engine, outcome, cases)
              : [record ? 'not recorded' : 'not recorded on this stack']),
            '.',
          );
        }),
      ),
      h('p', {}, allCases),
    );
  };
}
