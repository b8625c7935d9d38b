import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeOrphanedInstalls } from './npx-installs.js';

// npx's folder as npm 10 and 11 write it: each install's package.json names what it installed, a
// file: spec relative to the install (libnpmexec; seen in ~/.npm/_npx).
const folder = mkdtempSync(join(tmpdir(), 'npx-installs-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function install(npx: string, key: string, dependencies: Record<string, string>) {
  mkdirSync(join(npx, key, 'node_modules'), { recursive: true });
  writeFileSync(join(npx, key, 'package.json'), JSON.stringify({ dependencies }));
}

describe('the packed package tests clean up npx installs', () => {
  it('removes installs of origin-lab from a tests folder whose tarball is gone, and no other', async () => {
    const npx = join(folder, '_npx');
    const live = join(folder, 'origin-lab-package-live');
    mkdirSync(live);
    writeFileSync(join(live, 'origin-lab-1.0.0.tgz'), '');
    const fileSpec = (tarball: string, key: string) => `file:${relative(join(npx, key), tarball)}`;
    install(npx, 'gone', {
      'origin-lab': fileSpec(join(folder, 'origin-lab-package-gone', 'origin-lab-1.0.0.tgz'), 'gone'),
    });
    install(npx, 'live', { 'origin-lab': fileSpec(join(live, 'origin-lab-1.0.0.tgz'), 'live') });
    install(npx, 'older', { 'origin-lab': fileSpec(join(live, 'origin-lab-0.9.0.tgz'), 'older') });
    // A user's own: another package, or origin-lab from a tarball elsewhere, or the registry.
    install(npx, 'theirs', { cowsay: '^1.6.0' });
    install(npx, 'their-tarball', {
      'origin-lab': fileSpec(join(folder, 'downloads', 'origin-lab-1.0.0.tgz'), 'their-tarball'),
    });
    install(npx, 'registry', { 'origin-lab': '^1.0.0' });
    mkdirSync(join(npx, 'no-manifest'));

    expect((await removeOrphanedInstalls(npx)).sort()).toEqual(['gone', 'older']);
    expect(readdirSync(npx).sort()).toEqual(['live', 'no-manifest', 'registry', 'their-tarball', 'theirs']);
  });

  it('finds nothing to do where npm has no npx folder yet', async () => {
    expect(await removeOrphanedInstalls(join(folder, 'no-such-cache', '_npx'))).toEqual([]);
  });
});
