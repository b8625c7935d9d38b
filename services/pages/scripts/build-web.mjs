// Browser half of the pages build: compile web/ts to dist/public/js (plain ES modules, no
// bundler), the contract's sources (packages/contract/src) to dist/public/js/contract and the CORS
// rules' (packages/cors-rules/src) to dist/public/js/cors-rules, which the pages' import map
// names @origin-lab/contract and @origin-lab/cors-rules, copy web/static (CSS, away.html with the
// import map written in) as it is, write each page's HTML from the table of pages
// (src/page-table.ts) and its body fragment (web/bodies), gather the engines' records into
// engine-records/, and stamp the build time into js/build-info.js. Runs after the server's
// tsc -b (npm run build), which compiles the table and the shell to dist/.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { PAGES } from '../dist/page-table.js';
import { IMPORT_MAP, IMPORT_MAP_TAG, renderPage } from '../dist/page-shell.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here('../dist/public');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', here('../web/tsconfig.json')], { stdio: 'inherit' });
// The contract's values and codecs, compiled from its sources with the pages' own options
// (no comments, source maps with the sources inside): one source for the api and the pages.
execFileSync(process.execPath, [tsc, '-p', here('../web/tsconfig.contract.json')], { stdio: 'inherit' });
// The CORS rules likewise (js/cors-rules): the pages, `check` and `explain` reason with one copy.
execFileSync(process.execPath, [tsc, '-p', here('../web/tsconfig.cors-rules.json')], { stdio: 'inherit' });
// The browser resolves a bare specifier only through the import map: a module importing any
// other package by name would not load. Refuse to ship one.
const mapped = Object.keys(IMPORT_MAP.imports);
// A worker gets no import map (none of the engines reads one there): the bare imports of what it
// loads (js/workers/, and the rules it reasons with, js/cors-rules/) are written as the paths the
// map names, the same URLs a page's map gives them, so a page and a worker load the same modules.
for (const file of ['workers', 'cors-rules'].flatMap((dir) =>
  readdirSync(`${out}/js/${dir}`, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => `${dir}/${name}`),
)) {
  const path = `${out}/js/${file}`;
  writeFileSync(
    path,
    readFileSync(path, 'utf8').replace(/(\bfrom\s*|\bimport\s*)(['"])([^'"]+)\2/g, (all, keyword, quote, specifier) =>
      specifier in IMPORT_MAP.imports ? `${keyword}${quote}${IMPORT_MAP.imports[specifier]}${quote}` : all,
    ),
  );
}
for (const file of readdirSync(`${out}/js`, { recursive: true, encoding: 'utf8' }).filter((name) =>
  name.endsWith('.js'),
)) {
  const text = readFileSync(`${out}/js/${file}`, 'utf8');
  for (const [, from, bare] of text.matchAll(
    /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm,
  )) {
    const specifier = from ?? bare ?? '';
    if (!specifier.startsWith('.') && !specifier.startsWith('/') && !mapped.includes(specifier))
      throw new Error(
        `js/${file} imports "${specifier}": browser modules may import relative paths and ${mapped.join(', ')} only`,
      );
  }
}
cpSync(here('../web/static'), out, { recursive: true });
// A static page that loads a module gets the import map where it says <!-- import map -->.
for (const file of readdirSync(out).filter((name) => name.endsWith('.html'))) {
  const html = readFileSync(`${out}/${file}`, 'utf8');
  if (html.includes('<!-- import map -->'))
    writeFileSync(
      `${out}/${file}`,
      html.replace('<!-- import map -->', () => IMPORT_MAP_TAG),
    );
  else if (html.includes('type="module"'))
    throw new Error(`static/${file} loads a module but has no <!-- import map --> line before it`);
}
for (const page of PAGES) {
  // A row without its module would ship a page whose script 404s: stop the build instead.
  if (!existsSync(`${out}/js/pages/${page.name}.js`))
    throw new Error(`src/page-table.ts lists "${page.name}" but web/ts/pages/${page.name}.ts does not exist`);
  const body = readFileSync(here(`../web/bodies/${page.name}.html`), 'utf8');
  writeFileSync(`${out}/${page.name}.html`, renderPage(PAGES, page, body));
}
// The engines page and the playground read what the e2e suite recorded of each engine
// (engine-records/<stack>-<engine>.json, written by e2e/specs/playground.spec.ts): the page the
// list of stacks (engine-records/stacks.json) and one stack at a time (engine-records/stacks/
// <stack>.json), the playground one case at a time (engine-records/<scheme>/<case>.json).
const recordsDir = here('../engine-records');
const records = existsSync(recordsDir)
  ? readdirSync(recordsDir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => {
        const record = JSON.parse(readFileSync(`${recordsDir}/${name}`, 'utf8'));
        if (typeof record.engine !== 'string' || typeof record.stack !== 'string' || typeof record.cases !== 'object')
          throw new Error(`engine-records/${name} is not an engine record (engine, stack, cases)`);
        return record;
      })
  : [];
// Published packed (the contract's packRecord): the pages unpack them (compare.ts loadEngineRecords).
const { packRecord } = await import('../dist/public/js/contract/engine-records.js');
mkdirSync(`${out}/engine-records/stacks`, { recursive: true });
const stacks = [...new Set(records.map((record) => record.stack))].sort();
writeFileSync(`${out}/engine-records/stacks.json`, JSON.stringify(stacks));
for (const stack of stacks) {
  if (!/^[a-z0-9-]+$/.test(stack))
    throw new Error(`engine records name a stack "${stack}": stacks are lowercase words and dashes`);
  const ofStack = records.filter((record) => record.stack === stack);
  writeFileSync(`${out}/engine-records/stacks/${stack}.json`, JSON.stringify(ofStack.map(packRecord)));
}
// The playground shows one stack's records, the one for its own scheme (engines/compare.ts
// recordsForScheme, compiled above): per scheme, only those, so its weight stays one stack's.
const { recordsForScheme } = await import('../dist/public/js/engines/compare.js');
for (const scheme of ['http', 'https']) {
  const ofScheme = recordsForScheme(records, scheme);
  mkdirSync(`${out}/engine-records/${scheme}`, { recursive: true });
  for (const id of new Set(ofScheme.flatMap((record) => Object.keys(record.cases)))) {
    if (!/^[a-z0-9-]+$/.test(id))
      throw new Error(`engine records name a case "${id}": ids are lowercase words and dashes`);
    const one = ofScheme.map((record) => ({ ...record, cases: id in record.cases ? { [id]: record.cases[id] } : {} }));
    writeFileSync(`${out}/engine-records/${scheme}/${id}.json`, JSON.stringify(one.map(packRecord)));
  }
}
writeFileSync(`${out}/js/build-info.js`, `export const builtAt = ${JSON.stringify(new Date().toISOString())};\n`);
