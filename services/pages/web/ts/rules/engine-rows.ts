import type { EngineFamily } from '@origin-lab/cors-rules';

/**
 * A page's experiments engine by engine, as the engines page shows them for the pages whose
 * engines differ most (Local Network Access, sign-in): per experiment, what each engine did,
 * written by hand from each engine's shipped behaviour and compared with every e2e run of it
 * (e2e/specs/support/engines-page-table.ts), so the table cannot drift from the engines.
 */

/** One engine's outcome: as the page's experiment says it, whether the request reached the server (where it tells), and in words. */
export interface EngineCell {
  outcome: string;
  /** Whether the server saw the request (its journal); absent where the experiment does not tell. */
  arrived?: boolean;
  said: string;
}

export interface EngineRow {
  experiment: string;
  /** What the experiment asks, in a few words. */
  asks: string;
  engines: Record<EngineFamily, EngineCell>;
}

/** One page's table on the engines page. */
export interface EngineTable {
  /** The page's name: its experiments link to /<page>.html#<experiment>. */
  page: string;
  /** What the table shows, in one line (its caption). */
  caption: string;
  rows: readonly EngineRow[];
}

/** The row of an experiment in a table, if it has one. */
export function rowOf(table: EngineTable, experiment: string): EngineRow | undefined {
  return table.rows.find((row) => row.experiment === experiment);
}
