/**
 * `npm run docs:settings`: rewrites the README's configuration tables from the settings tables
 * (launcher/src/settings.ts). launcher/test/readme-settings.test.ts fails while they disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { settingsMarkdown } from '@origin-lab/server-kit';
import { README_SETTINGS } from './settings.js';

const readme = new URL('../../README.md', import.meta.url);
let text = readFileSync(readme, 'utf8');
for (const [name, tables] of Object.entries(README_SETTINGS)) {
  const start = `<!-- settings:${name} -->`;
  const end = `<!-- /settings:${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`README.md has no ${start} ... ${end} block`);
  text = `${text.slice(0, from + start.length)}\n${settingsMarkdown(tables)}\n${text.slice(to)}`;
}
writeFileSync(readme, text);
console.log('README.md: configuration tables written from the settings tables');
