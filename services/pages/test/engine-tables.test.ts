import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { EngineTable } from '../web/ts/rules/engine-rows.js';
import { LOCAL_NETWORK_ENGINES } from '../web/ts/rules/local-network-engines.js';
import { SIGN_IN_ENGINES } from '../web/ts/rules/sign-in-engines.js';

/** The experiments' ids of a page, as its modules declare them (web/ts/pages/<page>.ts and web/ts/<page>/). */
function pageExperiments(page: string): string[] {
  const folder = new URL(`../web/ts/${page}/`, import.meta.url);
  const sources = [
    readFileSync(new URL(`../web/ts/pages/${page}.ts`, import.meta.url), 'utf8'),
    ...(existsSync(folder) ? readdirSync(folder).map((file) => readFileSync(new URL(file, folder), 'utf8')) : []),
  ];
  return sources.flatMap((source) => [...source.matchAll(/^\s+id: '([a-z-]+)',$/gm)].map((match) => match[1]!));
}

const TABLES: { page: string; table: EngineTable; count: number }[] = [
  { page: 'local-network', table: LOCAL_NETWORK_ENGINES, count: 10 },
  { page: 'sign-in', table: SIGN_IN_ENGINES, count: 13 },
];

describe.each(TABLES)("the engines page's table of $page", ({ page, table, count }) => {
  it('is the table of its page', () => {
    expect(table.page).toBe(page);
  });

  it('has one row for every experiment of the page, in the order of the page', () => {
    const ids = pageExperiments(table.page);
    expect(ids).toHaveLength(count);
    expect(table.rows.map((row) => row.experiment)).toEqual(ids);
  });

  it('says for each engine an outcome and why', () => {
    for (const row of table.rows)
      for (const [engine, cell] of Object.entries(row.engines)) {
        expect(cell.outcome, `${row.experiment} in ${engine}`).not.toBe('');
        expect(cell.said.length, `${row.experiment} in ${engine}`).toBeGreaterThan(10);
      }
  });
});

describe('the Local Network Access table', () => {
  it('says whether each request left, except for rebinding, whose server is not the lab’s', () => {
    for (const row of LOCAL_NETWORK_ENGINES.rows)
      for (const [engine, cell] of Object.entries(row.engines))
        expect(cell.arrived === undefined, `${row.experiment} in ${engine}`).toBe(row.experiment.startsWith('rebind-'));
  });

  it('shows WebKit reaching loopback from a public page: it has no Local Network Access', () => {
    for (const row of LOCAL_NETWORK_ENGINES.rows.filter((one) => one.experiment.startsWith('lna-')))
      expect(row.engines.webkit.arrived, row.experiment).toBe(true);
  });
});
