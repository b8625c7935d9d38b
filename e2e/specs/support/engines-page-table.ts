import type { EngineFamily } from '@origin-lab/cors-rules';
import { rowOf, type EngineTable } from '../../../services/pages/web/ts/rules/engine-rows.js';
import { expect } from '../../fixtures.js';

/**
 * The engines page's tables of a page's experiments (services/pages/web/ts/rules/*-engines.ts)
 * say what each engine does: what a run observed must be what its cell says, or the table is out
 * of date. Whether the request reached the server is compared where the table says it.
 */
export function expectAsTheEnginesPageSays(
  table: EngineTable,
  engine: string,
  id: string,
  observed: { outcome?: unknown; arrived?: unknown },
): void {
  const cell = rowOf(table, id)?.engines[engine as EngineFamily];
  expect(cell, `${id} has no row for ${engine} on the engines page`).toBeDefined();
  const { outcome, arrived } = cell!;
  expect
    .soft(
      { outcome: observed.outcome, ...(arrived !== undefined && { arrived: observed.arrived }) },
      `${id} in ${engine}: the engines page's table of ${table.page} is out of date`,
    )
    .toEqual({ outcome, ...(arrived !== undefined && { arrived }) });
}
