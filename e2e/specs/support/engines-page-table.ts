import type { EngineFamily } from '@origin-lab/cors-rules';
import { localNetworkRow } from '../../../services/pages/web/ts/rules/local-network-engines.js';
import { expect } from '../../fixtures.js';

/**
 * The engines page's table of the Local Network Access experiments
 * (services/pages/web/ts/rules/local-network-engines.ts) says what each engine does with the page
 * counted public and the user saying no: what a run observed must be what it says, or the table
 * is out of date. Whether the request reached the server is compared where the table says it.
 */
export function expectAsTheEnginesPageSays(engine: string, id: string, observed: Record<string, unknown>): void {
  const cell = localNetworkRow(id)?.engines[engine as EngineFamily];
  expect(cell, `${id} has no row for ${engine} on the engines page`).toBeDefined();
  const { outcome, arrived } = cell!;
  expect
    .soft(
      { outcome: observed.outcome, ...(arrived !== undefined && { arrived: observed.arrived }) },
      `${id} in ${engine}: the engines page's Local Network Access table is out of date`,
    )
    .toEqual({ outcome, ...(arrived !== undefined && { arrived }) });
}
