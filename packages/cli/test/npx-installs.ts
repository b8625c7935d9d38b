/**
 * npx's installs of the packed package's tests (check-package.test.ts) whose tarball is gone. npx
 * keeps each install (<cache>/_npx/<key>) for good; its package.json names what it installed, as
 * a file: path relative to the install. Only installs of origin-lab from a folder of those tests
 * (origin-lab-package-*) are looked at.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** How the packed package's tests name their folder; an install from any other is not theirs. */
export const PACKAGE_FOLDER_PREFIX = 'origin-lab-package-';

/** Removes, under npx (the _npx folder of npm's cache), every install of ours whose tarball is gone; returns their keys. */
export async function removeOrphanedInstalls(npx: string): Promise<string[]> {
  if (!existsSync(npx)) return [];
  const orphans = readdirSync(npx).filter((key) => {
    const tarball = tarballOf(join(npx, key));
    return tarball !== null && !existsSync(tarball);
  });
  // About 11,000 files each: removed side by side, off the worker's event loop.
  await Promise.all(orphans.map((key) => rm(join(npx, key), { recursive: true, force: true })));
  return orphans;
}

/** The tarball an install of ours came from, or null for any other install. */
function tarballOf(install: string): string | null {
  const manifest = join(install, 'package.json');
  if (!existsSync(manifest)) return null;
  let spec: unknown;
  try {
    spec = (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, unknown> }).dependencies?.[
      'origin-lab'
    ];
  } catch {
    return null;
  }
  if (typeof spec !== 'string' || !spec.startsWith('file:') || !spec.includes(PACKAGE_FOLDER_PREFIX)) return null;
  return resolve(install, spec.slice('file:'.length));
}
