import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COVERAGE, matrixGaps, matrixTable } from '../../e2e/coverage.js';
import { PAGES_WITH_EXPERIMENTS } from '../../e2e/specs/support/pages.js';
import { workerCount } from '../../e2e/workers.js';

/**
 * The coverage matrix (e2e/coverage.ts) decides where each e2e spec runs; docs/testing.md shows
 * it. Every spec file has its row, every row its file, and the page shows the matrix as it is.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const specFiles = readdirSync(`${root}e2e/specs`).filter((file) => file.endsWith('.spec.ts'));

describe('the coverage matrix', () => {
  it('names every e2e spec file, and only those', () => {
    expect(matrixGaps(specFiles)).toEqual({ unlisted: [], missing: [] });
  });

  it('runs every spec somewhere, and gives the reason', () => {
    for (const [file, { runs, why }] of Object.entries(COVERAGE)) {
      expect(Object.values(runs).flat().length, file).toBeGreaterThan(0);
      expect(why.length, file).toBeGreaterThan(20);
    }
  });

  it('is shown in docs/testing.md as it is', () => {
    const doc = readFileSync(`${root}docs/testing.md`, 'utf8');
    expect(doc, `docs/testing.md must hold the matrix as e2e/coverage.ts has it:\n${matrixTable()}`).toContain(
      matrixTable(),
    );
  });
});

describe('E2E_WORKERS, as docs/testing.md says', () => {
  it('two tests at once when unset or empty', () => {
    expect(workerCount(undefined)).toBe(2);
    expect(workerCount('')).toBe(2);
  });

  it('takes a whole number from 1 to 16', () => {
    expect(workerCount('1')).toBe(1);
    expect(workerCount('16')).toBe(16);
  });

  for (const bad of ['0', '17', '2.5', 'two', '-1'])
    it(`refuses ${JSON.stringify(bad)}, naming the setting and the value`, () => {
      expect(() => workerCount(bad)).toThrow(`E2E_WORKERS must be a whole number from 1 to 16, not "${bad}"`);
    });
});

describe('one test per experiment', () => {
  it('every page with experiments has a spec that gives each its own test (experimentTests)', () => {
    const pagesWithTests = specFiles.flatMap((file) =>
      [
        ...readFileSync(`${root}e2e/specs/${file}`, 'utf8').matchAll(
          /experimentTests(?:<\w+>)?\(\{\s*page: '([a-z-]+)'/g,
        ),
      ].map((match) => `/${match[1]}.html`),
    );
    expect([...pagesWithTests].sort()).toEqual([...PAGES_WITH_EXPERIMENTS].sort());
  });
});
