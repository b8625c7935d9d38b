import { describe, expect, it } from 'vitest';
import type { EngineOutcome, EngineRecord } from '@origin-lab/contract';
import { canonicalCase, expandCase } from '@origin-lab/cors-rules/playground-address';
import { PRESETS } from '../web/ts/playground/presets.js';
import { CHARACTERS_SHOWN, LINES_IN_VIEW, foldBody } from '../web/ts/playground/answer-body.js';
import {
  casesByEngine,
  describeOutcome,
  engineList,
  inShowingOrder,
  outcomesDiffer,
  recordedStacks,
  recordsForScheme,
  recordsOfStack,
} from '../web/ts/engines/compare.js';

// The form's defaults as the page reads them: every field, the preflight's own ones included.
const DEFAULTS = new URLSearchParams({
  method: 'GET',
  'allow-origin': 'origin',
  'allow-credentials': 'off',
  'allow-methods': '',
  split: 'off',
  'preflight.allow-origin': 'origin',
  'preflight.allow-credentials': 'off',
  'preflight.allow-methods': '',
});
const canonical = (fragment: string) => canonicalCase(expandCase(new URLSearchParams(fragment), DEFAULTS), DEFAULTS);

describe("the playground's case in the address", () => {
  it.each([
    ['the defaults', '', ''],
    ['a default value written out', 'method=GET&allow-methods=PUT', 'allow-methods=PUT'],
    ['names in any order', 'allow-methods=PUT&method=PUT', 'allow-methods=PUT&method=PUT'],
    ['preflight fields while split is off', 'preflight.allow-origin=none', ''],
    [
      'a preflight field equal to the answer',
      'split=on&allow-origin=none&preflight.allow-origin=none',
      'allow-origin=none&split=on',
    ],
    [
      'a preflight field that differs',
      'split=on&allow-credentials=on&preflight.allow-credentials=off',
      'allow-credentials=on&preflight.allow-credentials=off&split=on',
    ],
    ['a preflight field left out follows the answer', 'split=on&allow-methods=PUT', 'allow-methods=PUT&split=on'],
  ])('keeps only what differs: %s', (_, fragment, expected) => {
    expect(canonical(fragment)).toBe(expected);
  });

  it('fills a preflight field the fragment leaves out from the answer, not from its own default', () => {
    const values = expandCase(new URLSearchParams('split=on&allow-methods=PUT'), DEFAULTS);
    expect(values.get('preflight.allow-methods')).toBe('PUT');
    expect(values.get('preflight.allow-origin')).toBe('origin');
  });
});

describe('the ready cases', () => {
  it('have unique ids and names', () => {
    expect(new Set(PRESETS.map((preset) => preset.id)).size).toBe(PRESETS.length);
    expect(new Set(PRESETS.map((preset) => preset.name)).size).toBe(PRESETS.length);
  });

  it('are distinct cases once written canonically, so the page can tell which one the form holds', () => {
    const all = PRESETS.map((preset) => canonicalCase(new URLSearchParams(preset.fragment), new URLSearchParams()));
    expect(new Set(all).size).toBe(PRESETS.length);
  });

  it('cover every row of the header and wildcard matrix, the credentials rules and the safelisting limits', () => {
    const groups = new Set(PRESETS.map((preset) => preset.group));
    for (const row of ['Allow-Origin', 'Allow-Methods', 'Allow-Headers', 'Expose-Headers', 'Max-Age', 'Credentials'])
      expect(groups).toContain(row);
    const fragments = PRESETS.map((preset) => decodeURIComponent(preset.fragment.replace(/\+/g, ' ')));
    // Each wildcard with and without credentials.
    for (const wildcard of ['allow-origin=*', 'allow-methods=*', 'allow-headers=*', 'expose-headers=*']) {
      const withIt = fragments.filter((fragment) => fragment.includes(wildcard));
      expect(
        withIt.some((fragment) => fragment.includes('credentials=include')),
        wildcard,
      ).toBe(true);
      expect(
        withIt.some((fragment) => !fragment.includes('credentials=include')),
        wildcard,
      ).toBe(true);
    }
    expect(fragments.some((fragment) => fragment.includes(`Content-Language: ${'a'.repeat(129)}`))).toBe(true);
    const languageBytes = (fragment: string) =>
      [...fragment.matchAll(/Accept-Language: (a+)/g)].reduce((sum, match) => sum + (match[1]?.length ?? 0), 0);
    expect(fragments.some((fragment) => languageBytes(fragment) > 1024)).toBe(true);
    for (const status of ['401', '301'])
      expect(fragments.some((f) => f.includes(`preflight-status=${status}`))).toBe(true);
    for (const cookie of ['cookie=none', 'cookie=lax', 'cookie=strict'])
      expect(fragments.some((fragment) => fragment.includes(cookie))).toBe(true);
  });
});

const outcome = (change: Partial<EngineOutcome> = {}): EngineOutcome => ({
  preflight: false,
  sent: true,
  readable: true,
  status: 200,
  extraVisible: null,
  cookieReturned: null,
  agreement: 'agree',
  ...change,
});
const record = (engine: EngineRecord['engine'], stack: string, scheme: string): EngineRecord => ({
  engine,
  version: '1',
  stack,
  scheme,
  recordedAt: '2026-11-23T00:00:00Z',
  cases: {},
});

describe('comparing engines', () => {
  it('marks exactly the parts that differ, naming the engines that did otherwise', () => {
    const chromium = outcome({ extraVisible: true });
    const firefox = outcome({ extraVisible: false });
    const webkit = outcome({ extraVisible: false, status: 204 });
    const parts = describeOutcome(chromium, [
      { engine: 'firefox', outcome: firefox },
      { engine: 'webkit', outcome: webkit },
    ]);
    expect(parts).toEqual([
      { text: 'no preflight', differsFrom: [] },
      { text: 'request arrived', differsFrom: [] },
      { text: 'answer read', differsFrom: [] },
      { text: 'status 200', differsFrom: ['webkit'] },
      { text: 'X-Lab-Extra visible', differsFrom: ['firefox', 'webkit'] },
    ]);
    const ofFirefox = describeOutcome(firefox, [
      { engine: 'chromium', outcome: chromium },
      { engine: 'webkit', outcome: webkit },
    ]);
    expect(ofFirefox.filter((part) => part.differsFrom.length > 0)).toEqual([
      { text: 'status 200', differsFrom: ['webkit'] },
      { text: 'X-Lab-Extra hidden', differsFrom: ['chromium'] },
    ]);
  });

  it('says nothing of a cookie or header the case does not set, and marks nothing against an engine not recorded', () => {
    const parts = describeOutcome(outcome(), [
      { engine: 'firefox', outcome: outcome() },
      { engine: 'webkit', outcome: undefined },
    ]);
    expect(parts.some((part) => /cookie|X-Lab/.test(part.text))).toBe(false);
    expect(parts.every((part) => part.differsFrom.length === 0)).toBe(true);
  });

  it('tells whether any two of the recorded engines differ, in what a reader compares only', () => {
    expect(outcomesDiffer([outcome(), outcome(), outcome()])).toBe(false);
    expect(outcomesDiffer([outcome(), outcome(), outcome({ cookieReturned: true })])).toBe(true);
    expect(outcomesDiffer([outcome(), outcome({ status: null, readable: false }), outcome()])).toBe(true);
    expect(outcomesDiffer([outcome(), undefined, outcome()])).toBe(false);
    expect(outcomesDiffer([outcome(), undefined, undefined])).toBe(false);
    expect(outcomesDiffer([outcome(), outcome({ agreement: 'known-difference' })])).toBe(false);
  });

  it('names the engines as people write them, WebKit as WebKit (GTK)', () => {
    expect(engineList(['firefox'])).toBe('Firefox');
    expect(engineList(['chromium', 'webkit'])).toBe('Chromium and WebKit (GTK)');
    expect(engineList(['chromium', 'firefox', 'webkit'])).toBe('Chromium, Firefox and WebKit (GTK)');
  });

  it('gives each case one place per engine, chromium, firefox, webkit, recorded or not', () => {
    const chromium = { ...record('chromium', 'caddy', 'https'), cases: { 'origin-star': outcome() } };
    const firefox = { ...record('firefox', 'caddy', 'https'), cases: { 'origin-star': outcome({ status: 201 }) } };
    expect(casesByEngine([firefox, chromium], 'origin-star')).toEqual([
      { engine: 'chromium', outcome: outcome() },
      { engine: 'firefox', outcome: outcome({ status: 201 }) },
      { engine: 'webkit', outcome: undefined },
    ]);
  });

  it('shows the TLS stacks first, and for a page the stack of its own scheme, its engines in a fixed order', () => {
    const records = [
      record('webkit', 'embedded', 'http'),
      record('firefox', 'embedded', 'http'),
      record('chromium', 'compose', 'https'),
      record('chromium', 'caddy', 'https'),
      record('firefox', 'caddy', 'https'),
      record('chromium', 'embedded', 'http'),
    ];
    expect(recordedStacks(records)).toEqual(['caddy', 'compose', 'embedded']);
    expect(inShowingOrder(['lan', 'other', 'embedded', 'caddy', 'lan'])).toEqual(['caddy', 'embedded', 'lan', 'other']);
    expect(recordsForScheme(records, 'https').map((r) => `${r.engine}@${r.stack}`)).toEqual([
      'chromium@caddy',
      'firefox@caddy',
    ]);
    expect(recordsForScheme(records, 'http').map((r) => `${r.engine}@${r.stack}`)).toEqual([
      'chromium@embedded',
      'firefox@embedded',
      'webkit@embedded',
    ]);
    expect(recordsOfStack(records, 'embedded').map((r) => r.engine)).toEqual(['chromium', 'firefox', 'webkit']);
  });
});

describe("the answer's body as the playground shows it", () => {
  // The lab's answer: one line of JSON, a user agent among its values.
  const reflection = JSON.stringify({
    method: 'GET',
    path: '/lab/cors',
    headers: { 'user-agent': `Mozilla/5.0 ${'x'.repeat(200)}`, accept: '*/*' },
    body: '',
  });

  it('pretty-prints JSON, the first lines in view and every other line behind the fold', () => {
    const folded = foldBody(reflection);
    const pretty = JSON.stringify(JSON.parse(reflection), null, 2);
    expect(folded.kind).toBe('json');
    expect(folded.head.split('\n')).toHaveLength(LINES_IN_VIEW);
    expect(`${folded.head}\n${folded.rest}`).toBe(pretty);
    expect(folded.restLines).toBe(pretty.split('\n').length - LINES_IN_VIEW);
    expect(folded.shown).toBe(folded.length);
  });

  it('folds nothing away from a body of a few lines, and keeps text that is not JSON as it came', () => {
    expect(foldBody('not json,\njust text')).toMatchObject({
      kind: 'text',
      head: 'not json,\njust text',
      rest: '',
      restLines: 0,
    });
    expect(foldBody('')).toMatchObject({ kind: 'empty', length: 0 });
  });

  it('cuts a body longer than it shows at the end of a line, and counts what it left out', () => {
    const long = JSON.stringify(Array.from({ length: 3_000 }, (_, i) => `item ${i}`));
    const pretty = JSON.stringify(JSON.parse(long), null, 2);
    const folded = foldBody(long);
    const shown = `${folded.head}\n${folded.rest}`;
    expect(folded.length).toBe(pretty.length);
    expect(folded.shown).toBe(shown.length);
    expect(folded.shown).toBeLessThanOrEqual(CHARACTERS_SHOWN);
    expect(folded.shown).toBeLessThan(folded.length);
    expect(pretty.startsWith(shown)).toBe(true);
    expect(pretty[shown.length]).toBe('\n');
  });
});
