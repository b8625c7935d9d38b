import type { EngineOutcome } from '@origin-lab/contract';
import { h } from '../frame/dom.js';
import { describeOutcome } from './compare.js';

/** One engine's outcome as a line of phrases, each that differs from other's marked. */
export function outcomePhrases(outcome: EngineOutcome, other: EngineOutcome | undefined): (Node | string)[] {
  return describeOutcome(outcome, other).flatMap(({ text, differs }, index) => [
    index > 0 ? ', ' : '',
    differs ? h('mark', { title: 'differs from the other engine' }, text) : text,
  ]);
}
