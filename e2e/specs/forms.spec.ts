import { EVERY_ENGINE, test, expect } from '../fixtures.js';
import { experimentTests } from './support/per-experiment.js';
import { trustworthy } from './support/trustworthy.js';

/** How the page describes a File entry. */
const file = (name: string, size: number, type: string) => `File(name="${name}", size=${size}, type="${type}")`;

/**
 * SPEC.md, "What new FormData(form) collects", row by row, applied to the form on forms.html
 * (reset to its starting values, with two sample files put in): a deliberate test oracle, written
 * from the specification, not copied from the page, so a page that drifts from the spec fails here.
 */
const COLLECTED_BY_SPEC: [string, string][] = [
  // A text input, select or textarea with a name: its current value.
  ['title', 'Hello'],
  ['colour', 'green'],
  ['note', 'Some text'],
  // A checked checkbox with no value attribute: the string "on".
  ['agree', 'on'],
  // The checked radio of a group (an unchecked one is not collected).
  ['size', 'l'],
  // A select multiple with two options chosen: two entries under one name.
  ['langs', 'en'],
  ['langs', 'de'],
  // Two controls sharing a name: two entries, in document order.
  ['phone', '111'],
  ['phone', '222'],
  // A file input with nothing chosen: an empty File (name empty, size 0, application/octet-stream).
  ['emptyFile', file('', 0, 'application/octet-stream')],
  // A file input multiple with two files: two File entries under one name.
  ['photos', file('a.txt', 5, 'text/plain')],
  ['photos', file('b.txt', 7, 'text/plain')],
];

/** Names the spec says are not collected: a disabled control, one in a disabled fieldset, an unchecked box and radio, the submit controls. */
const NOT_COLLECTED_BY_SPEC = [
  'disabledField',
  'insideDisabled',
  'newsletter',
  'unchosen',
  'action',
  'pos',
  'pos.x',
  'pos.y',
];

/** SPEC.md, "What JSON.stringify does to values": [as the property v of an object, as an array element]. */
const ISO_DATE = '"2024-01-02T03:04:05.000Z"'; // the page's Date, 2024-01-02 03:04:05 UTC
const THROWS = 'throws TypeError';
const rowsFor = (labels: string[], outcome: [string, string]) =>
  Object.fromEntries(labels.map((label) => [label, outcome]));
const JSON_BY_SPEC = {
  Date: [`{"v":${ISO_DATE}}`, `[${ISO_DATE}]`], // an ISO 8601 UTC string either way
  ...rowsFor(['undefined', 'function', 'symbol'], ['{}', '[null]']), // key omitted; null
  ...rowsFor(['Infinity', '-Infinity', 'NaN'], ['{"v":null}', '[null]']), // null; null
  ...rowsFor(['Map', 'Set'], ['{"v":{}}', '[{}]']), // {}; {}
  ...rowsFor(['BigInt', 'self-referencing object'], [THROWS, THROWS]),
};

// SPEC.md, forms and JSON: one expectation per experiment, written from the spec.
experimentTests({
  page: 'forms',
  runTimeout: 60_000,
  afterRun: {
    collect: ({ observed }) => {
      const entries = observed.entries as [string, string][];
      expect(entries).toEqual(COLLECTED_BY_SPEC);
      for (const name of NOT_COLLECTED_BY_SPEC)
        expect(
          entries.map(([entryName]) => entryName),
          name,
        ).not.toContain(name);
    },
    // A submit button passed as the submitter adds its name and value; an image input adds name.x and name.y, 0 without a click.
    submitter: ({ observed }) =>
      expect(observed).toEqual({
        submitAdds: [['action', 'publish']],
        nullSameAsNone: true,
        imageAdds: [
          ['pos.x', '0'],
          ['pos.y', '0'],
        ],
        reset: 'TypeError',
        plainButton: 'TypeError',
      }),
    'empty-file': ({ observed }) =>
      expect(observed).toEqual({
        isFile: true,
        file: { name: '', size: 0, type: 'application/octet-stream' },
      }),
    // Go 1.25's CrossOriginProtection (the lab's protect=fetch-metadata): a POST navigation is refused
    // unless Sec-Fetch-Site says same-origin, or, without Fetch Metadata (plain HTTP on a LAN name:
    // not potentially trustworthy), unless its Origin names the host asked. A navigation never preflights.
    'form-fetch-metadata': ({ observed }, { origins }) => {
      const told = trustworthy(origins.self);
      const navigation = (site: string) => ({
        preflight: false,
        site: told ? site : null,
        mode: told ? 'navigate' : null,
        dest: told ? 'iframe' : null,
      });
      expect(observed).toEqual({
        other: { status: 403, ...navigation('cross-site') },
        self: { status: 200, ...navigation('same-origin') },
      });
    },
    'json-stringify': ({ observed: json }) => {
      const table = Object.fromEntries(
        (json.rows as { label: string; asProperty: string; asElement: string }[]).map((row) => [
          row.label,
          [row.asProperty, row.asElement],
        ]),
      );
      expect(table).toEqual(JSON_BY_SPEC);
      expect(json.bareUndefinedType).toBe('undefined');
      expect(json.dateAfterParse).toBe('string');
    },
  },
});

test(
  'a real submission with the keyboard sends the submitter, and files chosen as a user would',
  { tag: EVERY_ENGINE },
  async ({ enginePage: page, origins }) => {
    await page.open(`${origins.self}/forms.html`);
    await page.chooseFiles('#photos', [
      { name: 'one.png', mimeType: 'image/png', buffer: Buffer.from('12345') },
      { name: 'two.png', mimeType: 'image/png', buffer: Buffer.from('123') },
    ]);
    await page.focus('#submit-publish');
    await page.press('Enter');
    await page.waitFor(
      () => document.getElementById('live-entries')?.textContent?.includes('action = publish') ?? false,
      15_000,
      'the submitted entries',
    );
    const live = await page.text('#live-entries');
    expect(live).toContain('photos = File(name="one.png", size=5, type="image/png")');
    expect(live).toContain('photos = File(name="two.png", size=3, type="image/png")');
    expect(live).not.toContain('newsletter');
    expect(await page.url()).toBe(`${origins.self}/forms.html`);
  },
);
