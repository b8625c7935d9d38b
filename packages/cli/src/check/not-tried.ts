/**
 * The attacker origins an engine never asked CORS about: every request of theirs stopped before
 * it left, by Chromium's Local Network Access (a page it counts as public reaching a loopback or
 * private address). Such an origin is neither refused nor read; a run with any is not all well,
 * whatever its findings: `check` says so in every report and exits 3 (EXIT.incomplete).
 */
import type { EngineName } from '../drivers/driver.js';
import type { TriedOrigin } from './origins.js';
import type { CellRun } from './run-check.js';

export interface NotTried {
  engine: EngineName;
  /** The attacker origins, labelled as the report labels them, whose every request was stopped so. */
  origins: string[];
  /** How many attacker origins the run had. */
  of: number;
  reason: 'local-network-access';
}

/** An origin as the report names it: the origin, or null and where it ran. */
export const triedOriginLabel = (origin: Pick<TriedOrigin, 'origin' | 'context'>) =>
  origin.context === 'page' ? origin.origin : `null (${origin.context.replace('-', ' ')})`;

/** The origin of one run, as the report names it. */
export const originLabel = (run: CellRun) => triedOriginLabel(run.origin);

const stopped = (run: CellRun) => run.reason?.rule === 'local-network-access';

/** Per engine, the attacker origins it did not try; engines that tried every one are left out. */
export function notTriedOf(runs: readonly CellRun[]): NotTried[] {
  const hostile = runs.filter((run) => run.origin.kind !== 'yours');
  const of = new Set(hostile.map(originLabel)).size;
  const engines = [...new Set(hostile.map((run) => run.engine))];
  return engines.flatMap((engine) => {
    const byOrigin = new Map<string, CellRun[]>();
    for (const run of hostile.filter((r) => r.engine === engine))
      byOrigin.set(originLabel(run), [...(byOrigin.get(originLabel(run)) ?? []), run]);
    // Not tried: stopped every time it could run (an origin the engine cannot be is its own answer).
    const origins = [...byOrigin]
      .filter(([, own]) => own.some(stopped) && own.every((run) => stopped(run) || run.couldNot !== null))
      .map(([label]) => label);
    return origins.length > 0 ? [{ engine, origins, of, reason: 'local-network-access' as const }] : [];
  });
}

/** One engine's gap, in words: how many, why, and what tries them. */
export function notTriedText(gap: NotTried): string {
  return `${gap.engine}: ${gap.origins.length} of ${gap.of} attacker origins not tried (Local Network Access stopped their requests before CORS was asked; --local-network public tries them)`;
}
