import type { LoadResult } from './wrk.js';
import type { Figure } from './report.js';
import { median } from './stats.js';

/** Something to put under load: a label and a function that runs the load for some seconds. */
export interface LoadTarget {
  label: string;
  run(durationS: number): Promise<LoadResult>;
  /** Warms the target before its first run; without it, one run of the warm-up's length does. */
  warm?(durationS: number): Promise<unknown>;
}

export interface LoadPlan {
  runs: number;
  durationS: number;
  warmupS: number;
  log(line: string): void;
}

/**
 * Warms every target up (the JIT settles), then runs them in turn, run after run: each run of a
 * target has its baseline measured seconds away, on the same machine in the same state. Every
 * other run goes in the reverse order, so no target always runs right after the same neighbour.
 * Returns every result per label.
 */
export async function measureInTurns(
  targets: readonly LoadTarget[],
  plan: LoadPlan,
): Promise<Map<string, LoadResult[]>> {
  const results = new Map<string, LoadResult[]>(targets.map((target) => [target.label, []]));
  for (const target of targets) await (target.warm ?? target.run)(plan.warmupS);
  for (let run = 1; run <= plan.runs; run++) {
    for (const target of run % 2 === 1 ? targets : [...targets].reverse()) {
      const result = await target.run(plan.durationS);
      results.get(target.label)!.push(result);
      plan.log(
        `  run ${run}/${plan.runs} ${target.label}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(2)} ms${result.errors ? `, ${result.errors} errors` : ''}`,
      );
    }
  }
  return results;
}

/** Requests per second and p99 of one target beside a baseline, as two figures (median of the runs). */
export function throughputFigures(
  bench: string,
  name: string,
  measured: readonly LoadResult[],
  baseline: readonly LoadResult[],
  baselineLabel: string,
  minRatio?: number,
  maxP99Ratio?: number,
): Figure[] {
  const ratios = measured.map((result, run) => result.rps / baseline[run]!.rps);
  const ratio = median(ratios);
  const spread = rangeOf(ratios);
  const errors = measured.reduce((sum, result) => sum + result.errors, 0);
  const rps: Figure = {
    bench,
    name: `${name} throughput`,
    value: median(measured.map((result) => result.rps)),
    unit: 'req/s',
    baseline: { label: baselineLabel, value: median(baseline.map((result) => result.rps)) },
    ratio,
    ...spread,
    ...(minRatio === undefined ? {} : { target: `>= ${minRatio}x`, met: ratio >= minRatio }),
    ...(errors > 0 ? { note: `${errors} failed or non-2xx answers in ${measured.length} runs` } : {}),
  };
  const p99Ratios = measured.map((result, run) => result.p99Ms / baseline[run]!.p99Ms);
  const p99: Figure = {
    bench,
    name: `${name} p99 latency`,
    value: median(measured.map((result) => result.p99Ms)),
    unit: 'ms',
    baseline: { label: baselineLabel, value: median(baseline.map((result) => result.p99Ms)) },
    ratio: median(p99Ratios),
    ...rangeOf(p99Ratios),
  };
  if (maxP99Ratio !== undefined) {
    p99.target = `<= ${maxP99Ratio}x`;
    p99.met = p99.ratio! <= maxP99Ratio;
  }
  return [rps, p99];
}

/** The lowest and highest per-run ratio when there are several runs: how far one run strays from the median. */
function rangeOf(ratios: readonly number[]): Pick<Figure, 'range'> {
  return ratios.length > 1 ? { range: [Math.min(...ratios), Math.max(...ratios)] } : {};
}
