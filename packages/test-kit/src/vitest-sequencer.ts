/**
 * The order vitest starts test files in, the longest first where the runs have shown which those
 * are. vitest orders by its cache of the last run's times (node_modules/.vite/vitest), which a
 * fresh clone lacks: it then starts the largest files first, and a short file with one long test
 * (the default check, in every engine) starts last and runs alone at the end of the run.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A sequencer that starts the files whose paths end in one of `longest` first, in that order,
 * and every other file after them in vitest's own order.
 */
export function longestFirst(longest: readonly string[]): typeof BaseSequencer {
  const rank = (spec: TestSpecification) => {
    const index = longest.findIndex((end) => spec.moduleId.endsWith(end));
    return index < 0 ? longest.length : index;
  };
  return class LongestFirst extends BaseSequencer {
    override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
      // Array.prototype.sort is stable: the files not named keep vitest's order.
      return (await super.sort(specs)).sort((a, b) => rank(a) - rank(b));
    }
  };
}
