import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBounded } from '@origin-lab/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { expressReflectingAll, YOURS } from './fixtures.js';
import { PACKAGE_FOLDER_PREFIX, removeOrphanedInstalls } from './npx-installs.js';
import { ENGINES, STEP_TIMEOUT } from './run-check.js';

// The package as a user gets it: `npm pack`, then `npx ./origin-lab-<version>.tgz check ...` in a
// folder of their own, with nothing of this repository around (its dependencies come from the
// registry, or npm's cache).

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * npx installs what it runs under npm's cache (<cache>/_npx/<key>: about 110 MB with this
 * package's dependencies, 8-10 s) and never removes it; the key is the spec as given (a path).
 * Packed into a new folder each run, the tarball left new installs behind every run (9.9 GB on
 * one machine). In a folder of its own for this checkout, outside it (nothing of the repository
 * around), the same keys come back each run: npx finds its install and puts in the new tarball
 * alone (and whatever of its dependencies changed), in under 2 s. Installs whose tarball is gone
 * (a checkout removed, a cleared /tmp) are removed first. The first run on a machine installs
 * everything, as a new user's does.
 */
const scratch = join(
  tmpdir(),
  `${PACKAGE_FOLDER_PREFIX}${createHash('sha256').update(root).digest('hex').slice(0, 12)}`,
);
/** Where the tests run npx from a folder that is not the tarball's. */
const elsewhere = join(scratch, 'elsewhere');
mkdirSync(elsewhere, { recursive: true });

function run(command: string, args: string[], cwd: string, timeoutMs: number, input?: string) {
  // A user's shell: none of the npm_* variables of the npm that runs these tests (under them npx
  // takes the tarball for a command to run), npm preferring its cache.
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  return runBounded(command, args, { cwd, env, timeoutMs, input });
}

/** The tarball, packed once for the file (npm pack runs the bundle first), and what it holds checked. */
let packing: Promise<string> | undefined;
function packedOnce(): Promise<string> {
  packing ??= (async () => {
    const packed = await run(
      'npm',
      ['pack', '--silent', '--pack-destination', scratch, '-w', 'origin-lab'],
      root,
      120_000,
    );
    expect(packed.code, packed.stderr).toBe(0);
    // The tarball's name, as npm pack says it; an older version's goes (its installs then with it).
    const tarball = packed.stdout.trim().split('\n').at(-1)!;
    expect(tarball).toMatch(/^origin-lab-\d+\.\d+\.\d+\.tgz$/);
    for (const name of readdirSync(scratch)) if (name.endsWith('.tgz') && name !== tarball) rmSync(join(scratch, name));
    const listing = await run('tar', ['-tzf', tarball], scratch, 10_000);
    expect(listing.stdout.trim().split('\n').sort()).toEqual([
      'package/CHANGELOG.md',
      'package/README.md',
      'package/bin/origin-lab.js',
      'package/package.json',
    ]);

    return tarball;
  })();
  return packing;
}

describe.skipIf(ENGINES.length === 0)('the packed package', () => {
  beforeAll(async () => {
    const cache = await run('npm', ['config', 'get', 'cache'], scratch, 30_000);
    expect(cache.code, cache.stderr).toBe(0);
    await removeOrphanedInstalls(join(cache.stdout.trim(), '_npx'));
  }, 60_000);

  it('npx ./origin-lab-<version>.tgz check runs as a new user would run it', async () => {
    const tarball = await packedOnce();
    const server = await expressReflectingAll();
    try {
      const checked = await run(
        'npx',
        [
          '--yes',
          // As the README says it: a path relative to where the user is (an absolute one npx runs as a program).
          `./${tarball}`,
          'check',
          server.url,
          '--from',
          YOURS,
          '--hostile',
          'arbitrary',
          '--engines',
          ENGINES[0]!,
          '--local-network',
          'public',
          '--json',
          '-',
          '--quiet',
          ...STEP_TIMEOUT,
        ],
        scratch,
        300_000,
      );
      expect(checked.code, checked.stderr).toBe(1);
      const report = JSON.parse(checked.stdout);
      expect(report.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(report.findings.map((finding: { kind: string }) => finding.kind)).toEqual(['hostile-read-credentials']);
    } finally {
      await server.stop();
    }
  }, 420_000);

  it('from another folder, npx takes the tarball as file:<absolute path> or --package <absolute path>, never bare', async () => {
    const tarball = join(scratch, await packedOnce());
    for (const args of [
      [`file:${tarball}`, '--version'],
      ['--package', tarball, 'origin-lab', '--version'],
    ]) {
      const ran = await run('npx', ['--yes', ...args], elsewhere, 120_000);
      expect(ran.code, `${args.join(' ')}: ${ran.stderr}`).toBe(0);
      expect(ran.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    }
    // The README's warning: a bare absolute path is run as a program (a shell's 126).
    const bare = await run('npx', ['--yes', tarball, '--version'], elsewhere, 120_000);
    expect(bare.code).toBe(126);
    expect(bare.stderr).toContain('Permission denied');
  }, 300_000);

  it('npx ./origin-lab-<version>.tgz explain reads a console line from standard input', async () => {
    const tarball = await packedOnce();
    const line =
      "Access to fetch at 'https://api.example.com/me' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.";
    const explained = await run('npx', ['--yes', `./${tarball}`, 'explain', '-', '--json'], scratch, 120_000, line);
    expect(explained.code, explained.stderr).toBe(0);
    expect(JSON.parse(explained.stdout).explanations[0]).toMatchObject({ engine: 'chromium', rule: 'no-allow-origin' });
  }, 180_000);
});
