import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
export async function pageWeightBench(_options: BenchOptions, _log: (line: string) => void): Promise<Figure[]> {
  return [];
}
