import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rowsOf, shownDefault, type SettingsTable } from '@origin-lab/server-kit';
import { README_SETTINGS } from '../src/settings.js';

/**
 * The README's configuration tables are the promise to whoever runs the lab: each line names a
 * variable, its default, what it accepts and what it does. This test reads them as written
 * (parsed from the Markdown) and fails while any line disagrees with the settings table the code
 * reads. `npm run docs:settings` writes them again from the settings tables.
 */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

interface Line {
  variable: string;
  shownDefault: string;
  accepts: string;
  meaning: string;
}

/** The table between `<!-- settings:NAME -->` and `<!-- /settings:NAME -->`, one record per row. */
function readmeTable(name: string): Line[] {
  const block = README.split(`<!-- settings:${name} -->`)[1]?.split(`<!-- /settings:${name} -->`)[0];
  if (block === undefined) throw new Error(`README.md has no settings:${name} block`);
  const rows = block
    .trim()
    .split('\n')
    .map((line) =>
      line
        .replace(/^\||\|$/g, '')
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  const [header, rule, ...body] = rows;
  expect(header).toEqual(['Variable', 'Default', 'Accepts', 'Meaning']);
  expect(rule?.join('|')).toMatch(/^[-|]+$/);
  return body.map(([variable = '', shown = '', accepts = '', meaning = '']) => ({
    variable: variable.replace(/`/g, ''),
    shownDefault: shown,
    accepts,
    meaning,
  }));
}

function codeTable(tables: readonly SettingsTable[]): Line[] {
  return tables.flatMap((table) =>
    rowsOf(table).map(({ row }) => ({
      variable: row.env,
      shownDefault: shownDefault(row),
      accepts: row.accepts,
      meaning: row.doc,
    })),
  );
}

describe("the README's configuration tables", () => {
  it.each(Object.entries(README_SETTINGS))(
    '%s: every line matches a setting the code reads, in order',
    (name, tables) => {
      const documented = readmeTable(name);
      const read = codeTable(tables);
      expect(documented.map((line) => line.variable)).toEqual(read.map((line) => line.variable));
      for (const [i, line] of documented.entries()) expect(line, line.variable).toEqual(read[i]);
    },
  );

  it('names each variable once per table', () => {
    for (const name of Object.keys(README_SETTINGS)) {
      const variables = readmeTable(name).map((line) => line.variable);
      expect(new Set(variables).size, name).toBe(variables.length);
    }
  });

  it('writes the defaults a reader relies on as the code has them', () => {
    // Hand-written from the README's promises: a few defaults that a lesson or a guide quotes.
    const api = new Map(readmeTable('api').map((line) => [line.variable, line.shownDefault]));
    expect(api.get('PORT')).toBe('8080');
    expect(api.get('SLOW_MS_MAX')).toBe('30000');
    expect(api.get('STREAM_INTERVAL_MS')).toBe('1000');
    expect(api.get('VISITOR_MAX_STREAMS')).toBe('16');
  });
});
