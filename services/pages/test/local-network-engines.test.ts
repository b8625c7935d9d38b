import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { LOCAL_NETWORK_ENGINES } from '../web/ts/rules/local-network-engines.js';

/** The experiments' ids of the Local Network Access page, as its modules declare them. */
function pageExperiments(): string[] {
  const folder = new URL('../web/ts/local-network/', import.meta.url);
  const sources = [
    readFileSync(new URL('../web/ts/pages/local-network.ts', import.meta.url), 'utf8'),
    ...readdirSync(folder).map((file) => readFileSync(new URL(file, folder), 'utf8')),
  ];
  return sources.flatMap((source) => [...source.matchAll(/^\s+id: '([a-z-]+)',$/gm)].map((match) => match[1]!));
}

describe("the engines page's Local Network Access table", () => {
  it('has one row for every experiment of the page, in the order of the page', () => {
    const ids = pageExperiments();
    expect(ids).toHaveLength(10);
    expect(LOCAL_NETWORK_ENGINES.map((row) => row.experiment)).toEqual(ids);
  });

  it('says for each engine an outcome and why, and whether the request left where the lab can see it', () => {
    for (const row of LOCAL_NETWORK_ENGINES)
      for (const [engine, cell] of Object.entries(row.engines)) {
        expect(cell.said.length, `${row.experiment} in ${engine}`).toBeGreaterThan(10);
        expect(cell.arrived === undefined, `${row.experiment} in ${engine}`).toBe(row.experiment.startsWith('rebind-'));
      }
  });

  it('shows WebKit reaching loopback from a public page: it has no Local Network Access', () => {
    for (const row of LOCAL_NETWORK_ENGINES.filter((one) => one.experiment.startsWith('lna-')))
      expect(row.engines.webkit.arrived, row.experiment).toBe(true);
  });
});
