// Browser half of the pages build: compile web/ts to dist/public/js (plain ES modules, no
// bundler), copy web/static as it is, and stamp the build time into js/build-info.js.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here('../dist/public');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', here('../web/tsconfig.json')], { stdio: 'inherit' });
cpSync(here('../web/static'), out, { recursive: true });
writeFileSync(`${out}/js/build-info.js`, `export const builtAt = ${JSON.stringify(new Date().toISOString())};\n`);
