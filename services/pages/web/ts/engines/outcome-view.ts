import type { EngineName, EngineOutcome } from '@origin-lab/contract';
import { h } from '../frame/dom.js';
import { describeOutcome, engineList, type EngineCase } from './compare.js';

/**
 * One engine's outcome of a case as a line of phrases; a phrase where another engine of cases
 * did otherwise is marked, naming those engines (in its title, and in words for a screen reader).
 */
export function outcomePhrases(
  engine: EngineName,
  outcome: EngineOutcome,
  cases: readonly EngineCase[],
): (Node | string)[] {
  const others = cases.filter((other) => other.engine !== engine);
  return describeOutcome(outcome, others).flatMap(({ text, differsFrom }, index) => {
    const differs = `differs from ${engineList(differsFrom)}`;
    return [
      index > 0 ? ', ' : '',
      differsFrom.length > 0
        ? h('mark', { title: differs }, text, h('span', { class: 'visually-hidden' }, ` (${differs})`))
        : text,
    ];
  });
}
