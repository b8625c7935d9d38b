import { test, expect } from '../fixtures.js';
import { openPage, runAll } from './support/experiments.js';

test('forms and JSON: what FormData collects and what JSON.stringify does', async ({ page, origins }) => {
  await openPage(page, `${origins.self}/forms.html`);
  const r = await runAll(page);

  expect(r['collect']!.observed.entries).toEqual([
    ['title', 'Hello'],
    ['colour', 'green'],
    ['note', 'Some text'],
    ['agree', 'on'],
    ['size', 'l'],
    ['langs', 'en'],
    ['langs', 'de'],
    ['phone', '111'],
    ['phone', '222'],
    ['emptyFile', 'File(name="", size=0, type="application/octet-stream")'],
    ['photos', 'File(name="a.txt", size=5, type="text/plain")'],
    ['photos', 'File(name="b.txt", size=7, type="text/plain")'],
  ]);
  expect(r['submitter']!.observed).toEqual({
    submitAdds: [['action', 'publish']],
    nullSameAsNone: true,
    imageAdds: [['pos.x', '0'], ['pos.y', '0']],
    reset: 'TypeError',
    plainButton: 'TypeError',
  });
  expect(r['empty-file']!.observed).toEqual({ isFile: true, file: { name: '', size: 0, type: 'application/octet-stream' } });

  const json = r['json-stringify']!.observed;
  const table = Object.fromEntries((json.rows as { label: string; asProperty: string; asElement: string }[]).map((row) => [row.label, [row.asProperty, row.asElement]]));
  expect(table).toEqual({
    Date: ['{"v":"2024-01-02T03:04:05.000Z"}', '["2024-01-02T03:04:05.000Z"]'],
    undefined: ['{}', '[null]'],
    function: ['{}', '[null]'],
    symbol: ['{}', '[null]'],
    Infinity: ['{"v":null}', '[null]'],
    '-Infinity': ['{"v":null}', '[null]'],
    NaN: ['{"v":null}', '[null]'],
    Map: ['{"v":{}}', '[{}]'],
    Set: ['{"v":{}}', '[{}]'],
    BigInt: ['throws TypeError', 'throws TypeError'],
    'self-referencing object': ['throws TypeError', 'throws TypeError'],
  });
  expect(json.bareUndefinedType).toBe('undefined');
  expect(json.dateAfterParse).toBe('string');

  for (const [id, result] of Object.entries(r)) expect(result.state, id).toBe('agree');
});

test('a real submission with the keyboard sends the submitter, and files chosen as a user would', async ({ page, origins }) => {
  await openPage(page, `${origins.self}/forms.html`);
  await page.locator('#photos').setInputFiles([
    { name: 'one.png', mimeType: 'image/png', buffer: Buffer.from('12345') },
    { name: 'two.png', mimeType: 'image/png', buffer: Buffer.from('123') },
  ]);
  await page.locator('#submit-publish').focus();
  await page.keyboard.press('Enter');
  const live = page.locator('#live-entries');
  await expect(live).toContainText('action = publish');
  await expect(live).toContainText('photos = File(name="one.png", size=5, type="image/png")');
  await expect(live).toContainText('photos = File(name="two.png", size=3, type="image/png")');
  await expect(live).not.toContainText('newsletter');
  expect(page.url()).toBe(`${origins.self}/forms.html`);
});
