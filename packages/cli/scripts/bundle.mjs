// Bundles the command into bin/origin-lab.js: the package's own code and the workspace packages
// it uses (@origin-lab/cors-rules, contract, engines) in one file, so the packed tarball needs
// only its published dependencies (playwright-core, webdriverio, node-forge), which stay outside.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const manifest = JSON.parse(readFileSync(here('../package.json'), 'utf8'));
await build({
  entryPoints: [here('../src/bin.ts')],
  outfile: here('../bin/origin-lab.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: Object.keys(manifest.dependencies),
  banner: { js: '#!/usr/bin/env node' },
  legalComments: 'none',
  logLevel: 'warning',
});
