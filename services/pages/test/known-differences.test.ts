import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { ALL_DIFFERENCES, differenceColumns, differenceRows } from '../web/ts/engines/page-differences.js';
import { knownDifference, knownDifferenceOf, type KnownDifference } from '../web/ts/rules/known-differences.js';

/** A page's module, and the modules of its own folder (web/ts/<page>/) where it has one. */
const pageSource = (page: string) => {
  const folder = new URL(`../web/ts/${page}/`, import.meta.url);
  const own = existsSync(folder) ? readdirSync(folder).map((file) => readFileSync(new URL(file, folder), 'utf8')) : [];
  return [readFileSync(new URL(`../web/ts/pages/${page}.ts`, import.meta.url), 'utf8'), ...own].join('\n');
};

describe('the list of known engine differences', () => {
  it('names, per engine, the experiments measured to differ (docs/pages.md)', () => {
    const named = ALL_DIFFERENCES.map((d) => `${d.engine} ${d.page}: ${d.experiment}`).sort();
    expect(named).toEqual([
      'chromium local-network: lna-iframe',
      'chromium local-network: lna-target-address-space-wrong',
      'chromium local-network: rebind-open',
      'chromium sign-in: redirect-query',
      'firefox beacons: keepalive-budget',
      'firefox beacons: lifecycle-unload-policy',
      'firefox bodies: content-types',
      'firefox local-network: lna-websocket',
      'firefox local-network: rebind-open',
      'firefox sign-in: popup-coop-noopener-allow-popups',
      'webkit beacons: lifecycle-unload',
      'webkit bodies: content-types',
      'webkit events: no-websocket',
      'webkit isolation: isolated',
      'webkit isolation: shared-array-buffer',
      'webkit local-network: lna-allowed',
      'webkit local-network: rebind-checked',
      'webkit local-network: rebind-open',
      'webkit outcomes: abort-reason',
      'webkit outcomes: deadline',
      'webkit sign-in: frame-partitioned-cookie',
      'webkit sign-in: frame-storage-access',
      'webkit sign-in: redirect-form-post',
      'webkit sign-in: redirect-query',
    ]);
  });

  it('lists each experiment at most once per engine', () => {
    const keys = ALL_DIFFERENCES.map((d) => `${d.page}#${d.experiment}@${d.engine}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names only experiments that are on their page', () => {
    for (const d of ALL_DIFFERENCES)
      expect(pageSource(d.page), `${d.page}: ${d.experiment}`).toContain(`'${d.experiment}'`);
  });

  it('names the engine and version each was measured in, never "Safari"', () => {
    for (const d of ALL_DIFFERENCES) {
      expect(d.measured).toMatch(
        { webkit: /^WebKit \(GTK\) 2\.50/, firefox: /^Firefox ESR 153$/, chromium: /^Chromium 156$/ }[d.engine],
      );
      expect(`${d.did} ${d.says}`).not.toMatch(/safari/i);
    }
  });

  it("says what WebKit did where it departs from the spec: stream bodies, a timeout's and an abort's rejection", () => {
    expect(knownDifferenceOf('bodies', 'content-types', 'webkit')?.says).toBe(
      "this engine cannot send a ReadableStream as a request body: fetch rejects with NotSupportedError, with or without duplex: 'half'",
    );
    expect(knownDifferenceOf('outcomes', 'deadline', 'webkit')?.did).toBe(
      'a fetch under AbortSignal.timeout() rejects with AbortError, not TimeoutError',
    );
    expect(knownDifferenceOf('outcomes', 'abort-reason', 'webkit')?.did).toBe(
      'a fetch aborted with a string reason rejects with an AbortError DOMException, not the reason',
    );
    expect(knownDifferenceOf('outcomes', 'deadline', 'chromium')).toBeNull();
  });

  it('keeps the back/forward cache of a page with an unload listener as within the spec (some browsers block it)', () => {
    expect(knownDifferenceOf('beacons', 'lifecycle-unload', 'webkit')?.departsFromSpec).toBe(false);
  });

  it("keeps WebKit's want of Local Network Access, and a cookie it will not keep, within the spec", () => {
    // Local Network Access is a WICG draft, not yet in Fetch; a browser may refuse to keep any cookie.
    expect(knownDifferenceOf('local-network', 'lna-allowed', 'webkit')?.departsFromSpec).toBe(false);
    expect(knownDifferenceOf('sign-in', 'frame-partitioned-cookie', 'webkit', ALL_DIFFERENCES)?.departsFromSpec).toBe(
      false,
    );
    expect([...new Set(ALL_DIFFERENCES.filter((d) => !d.departsFromSpec).map((d) => d.page))]).toEqual([
      'beacons',
      'local-network',
      'sign-in',
    ]);
  });
});

describe("a page's knownDifference sentence", () => {
  it('is the listed sentence when the listed departure happened', () => {
    expect(knownDifference('beacons', 'keepalive-budget', 'firefox', true)).toBe(
      'firefox does not apply the 64 KiB budget to sendBeacon (its keepalive fetch does refuse 70 KiB)',
    );
  });

  it('is null when it did not happen, when the engine has none listed, or when the spec allows it', () => {
    expect(knownDifference('beacons', 'keepalive-budget', 'firefox', false)).toBeNull();
    expect(knownDifference('beacons', 'keepalive-budget', 'webkit', true)).toBeNull();
    expect(knownDifference('beacons', 'lifecycle-unload', 'webkit', true)).toBeNull();
  });
});

describe("the engines page's table of the pages' differences", () => {
  const difference = (page: string, experiment: string, engine: KnownDifference['engine']): KnownDifference => ({
    page,
    experiment,
    engine,
    did: `${engine} did it`,
    says: `${engine} says it`,
    measured: 'somewhere',
    departsFromSpec: true,
  });

  it('has a column per engine, as the engines page names them: Chromium, Firefox, WebKit (GTK)', () => {
    expect(differenceColumns()).toEqual(['Chromium', 'Firefox', 'WebKit (GTK)']);
  });

  it("has one row per experiment, linked to the experiment on its page, each engine's difference in its column", () => {
    const a = difference('bodies', 'content-types', 'firefox');
    const b = difference('outcomes', 'deadline', 'webkit');
    const c = difference('bodies', 'content-types', 'webkit');
    expect(differenceRows([a, b, c])).toEqual([
      {
        page: 'bodies',
        experiment: 'content-types',
        href: '/bodies.html#content-types',
        cells: { chromium: null, firefox: a, webkit: c },
      },
      {
        page: 'outcomes',
        experiment: 'deadline',
        href: '/outcomes.html#deadline',
        cells: { chromium: null, firefox: null, webkit: b },
      },
    ]);
  });

  it('shows every listed difference', () => {
    const rows = differenceRows();
    expect(rows).toHaveLength(20);
    expect(rows.flatMap((row) => Object.values(row.cells).filter((cell) => cell !== null))).toHaveLength(
      ALL_DIFFERENCES.length,
    );
  });
});
