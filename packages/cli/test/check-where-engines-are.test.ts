import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Discovery } from '@origin-lab/engines';
import type { CheckReport } from '../src/check/report.js';
import { expressExactAllowlist, YOURS } from './fixtures.js';
import { ENGINES, PROGRAM, runProgram } from './run-check.js';

// Where engines are found, proven by real runs on this Debian machine (PLATFORM.md): Debian's
// own places, then Debian's Chromium placed where Playwright's installer puts its browsers, with
// Debian's paths hidden in a mount namespace of the command's own, so that only the cache can
// have been used. The places of other systems are data (packages/engines/test/engine-places.test.ts).

const DEBIAN_CHROMIUM = '/usr/lib/chromium';
const DEBIAN_FIREFOX = '/usr/lib/firefox-esr';
const DEBIAN_SHELL = `${DEBIAN_CHROMIUM}/chromium-headless-shell`;

/** Whether this process may give a command a mount namespace of its own (root, with unshare). */
const canHide = (() => {
  try {
    execFileSync('unshare', ['--mount', '--propagation', 'private', 'true'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
})();

const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-engines-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A Playwright-shaped cache (playwright-core 1.64, linux-x64) holding Debian's Chromium, each
 * file a hard link (same file system, nothing copied): chromium-1200/chrome-linux64/chrome.
 */
function playwrightCacheWithDebianChromium(): { cache: string; chrome: string } {
  const cache = join(scratch, 'ms-playwright');
  const dir = join(cache, 'chromium-1200', 'chrome-linux64');
  mkdirSync(join(cache, 'chromium-1200'), { recursive: true });
  execFileSync('cp', ['-al', DEBIAN_CHROMIUM, dir], { timeout: 30_000 });
  linkSync(join(dir, 'chromium'), join(dir, 'chrome'));
  return { cache, chrome: join(dir, 'chrome') };
}

/** The program's arguments run with Debian's Chromium and Firefox folders hidden (empty) for it alone. */
function hidingDebian(args: string[]): string[] {
  const script = `mount -t tmpfs tmpfs ${DEBIAN_CHROMIUM} && mount -t tmpfs tmpfs ${DEBIAN_FIREFOX} && exec "$0" "$@"`;
  return ['--mount', '--propagation', 'private', '--', 'sh', '-c', script, process.execPath, PROGRAM, ...args];
}

/** Runs the program in the namespace of hidingDebian, asynchronously: the fixture server runs in this process. */
function runHidden(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'unshare',
      hidingDebian(args),
      { env: { ...process.env, ...env }, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!ENGINES.includes('chromium'))('origin-lab engines, on this Debian machine', () => {
  it("finds Debian's engines where Debian installs them, each with the version it says", async () => {
    const { code, stdout } = await runProgram(['engines', '--json']);
    expect(code).toBe(0);
    const { engines, others } = JSON.parse(stdout) as Discovery;
    const chromium = engines.find((engine) => engine.family === 'chromium')!;
    // Debian's headless shell (npm test installs it beside Chromium) before Debian's Chromium: the
    // same build, and the check needs no more of it. The full browser is then listed, not used.
    const hasShell = existsSync(DEBIAN_SHELL);
    const product = hasShell ? 'Chromium Headless Shell' : 'Chromium';
    const path = hasShell ? DEBIAN_SHELL : `${DEBIAN_CHROMIUM}/chromium`;
    expect(chromium).toMatchObject({ path, via: 'installed', product });
    expect(chromium.label).toBe(`${product} ${chromium.version!.split('.')[0]}`);
    if (hasShell)
      expect(others).toContainEqual(
        expect.objectContaining({
          path: `${DEBIAN_CHROMIUM}/chromium`,
          product: 'Chromium',
          version: chromium.version,
        }),
      );
    if (ENGINES.includes('firefox'))
      expect(engines.find((engine) => engine.family === 'firefox')).toMatchObject({
        path: `${DEBIAN_FIREFOX}/firefox-esr`,
        product: 'Firefox ESR',
        version: expect.stringMatching(/^\d+\.\d+\.\d+esr$/),
      });
    if (ENGINES.includes('webkit'))
      expect(engines.find((engine) => engine.family === 'webkit')).toMatchObject({
        path: '/usr/bin/WebKitWebDriver',
        version: null,
        miniBrowser: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      });
  });

  // A program that is not the engine it is named as, is not there, is too old or too slow to say
  // its version: one line naming it, exit 2. One test per program, each with its own bound: eight
  // starts of the program in one test once took more than a test's 20 s beside the compose images'
  // first build (a clean clone on a new machine).
  // What Firefox ESR 140 prints for --version (Debian bookworm's main suite): older than check drives.
  const oldFirefox = join(scratch, 'firefox-140');
  // A program that takes longer to say its version than --timeout gives it.
  const slowChromium = join(scratch, 'slow-chromium');
  beforeAll(() => {
    writeFileSync(oldFirefox, '#!/bin/sh\necho "Mozilla Firefox 140.5.0esr"\n', { mode: 0o755 });
    // A wrapper that does not exec: its sleep is a child of its own, which a late answer must not leave behind.
    writeFileSync(slowChromium, '#!/bin/sh\nsleep 86399\necho "Chromium 156.0.8078.114"\n', { mode: 0o755 });
  });
  it.each<[string, string[], NodeJS.ProcessEnv, RegExp]>([
    [
      'Chromium named as WebKit',
      ['--browser', `webkit=${DEBIAN_CHROMIUM}/chromium`],
      {},
      /^origin-lab: --browser webkit=\S+ is Chromium \d+[\d.]*, not webkit\n$/,
    ],
    [
      'Node named as Chromium',
      ['--browser', `chromium=${process.execPath}`],
      {},
      /^origin-lab: --browser chromium=\S+ is not a chromium browser \(it says "v\d+/,
    ],
    [
      'CHROMIUM_PATH where there is no program',
      [],
      { CHROMIUM_PATH: '/nonexistent/chrome' },
      /^origin-lab: CHROMIUM_PATH is \/nonexistent\/chrome: no program there\n$/,
    ],
    ['one engine named twice', ['--browser', 'chromium=a', '--browser', 'chromium=b'], {}, /names chromium twice/],
    [
      'a Firefox older than check drives',
      ['--browser', `firefox=${oldFirefox}`],
      {},
      /^origin-lab: --browser firefox=\S+ is Firefox ESR 140\.5\.0esr, older than Firefox 153, the oldest check drives\n$/,
    ],
    [
      'an engine check does not drive',
      ['--browser', 'opera=/usr/bin/opera'],
      {},
      /--browser takes chromium=<path>, firefox=<path> or webkit=<path>/,
    ],
    [
      'a program slower to say its version than --timeout',
      ['--browser', `chromium=${slowChromium}`, '--timeout', '300'],
      {},
      /^origin-lab: --browser chromium=\S+ did not say it is a chromium browser \(no answer within 300 ms\)\n$/,
    ],
    [
      'a --timeout below its least',
      ['--timeout', '50'],
      {},
      /^origin-lab: --timeout must be a whole number from 100 to 600000; got "50"\n$/,
    ],
  ])('%s: one line, exit 2', async (_name, args, env, said) => {
    const { code, stdout, stderr } = await runProgram(['engines', ...args], 60_000, env);
    expect(stderr, args.join(' ')).toMatch(said);
    expect(stdout).toBe('');
    expect(code).toBe(2);
    // Nothing it started is left running, a wrapper's own child included.
    expect(spawnSync('pgrep', ['-f', 'sleep 86399']).stdout.toString()).toBe('');
  });

  it.skipIf(!canHide)(
    "Debian's Chromium where Playwright puts its browsers, Debian's paths hidden: engines finds it in the cache, and check runs it, asking no other engine its version",
    async () => {
      const { cache, chrome } = playwrightCacheWithDebianChromium();
      const env = { PLAYWRIGHT_BROWSERS_PATH: cache, CHROMIUM_PATH: '', FIREFOX_PATH: '' };
      const listed = await runHidden(['engines', '--json'], env);
      expect(listed.code).toBe(0);
      const discovery = JSON.parse(listed.stdout) as Discovery;
      expect(discovery.engines.find((engine) => engine.family === 'chromium')).toMatchObject({
        path: chrome,
        via: "Playwright's cache",
        product: 'Chromium',
      });
      // Firefox is hidden and not in the cache: missing, with Debian's package to install.
      expect(discovery.missing.find((missing) => missing.family === 'firefox')).toMatchObject({
        install: 'sudo apt-get install firefox-esr',
      });

      // Asked for by name, the missing one is one line with the command that installs it.
      const asked = await runHidden(['check', 'http://127.0.0.1:9/', '--from', YOURS, '--engines', 'firefox'], env);
      expect(asked.stderr).toMatch(
        /^origin-lab: firefox was not found: .*\. Install: sudo apt-get install firefox-esr\n$/,
      );
      expect(asked.code).toBe(2);

      // A WebKit driver that notes each time it is run: a check in Chromium alone has no use for
      // WebKit, so does not start it to ask what it is.
      const asks = join(scratch, 'webkit-asked');
      const webkit = join(scratch, 'webkit-driver');
      writeFileSync(webkit, `#!/bin/sh\necho "$@" >> ${asks}\necho "Usage: WebKitWebDriver [OPTION...]"\n`, {
        mode: 0o755,
      });
      const server = await expressExactAllowlist();
      try {
        const args = ['check', server.url, '--from', YOURS, '--hostile', 'arbitrary', '--engines', 'chromium'];
        const ran = await runHidden([...args, '--local-network', 'public', '--json', '-', '--quiet'], {
          ...env,
          WEBKIT_DRIVER_PATH: webkit,
        });
        expect(existsSync(asks), 'the WebKit driver was run').toBe(false);
        expect(ran.stdout, ran.stderr).toMatch(/^\{/);
        const report = JSON.parse(ran.stdout) as CheckReport;
        expect(report.engines).toEqual([expect.objectContaining({ name: 'chromium', program: chrome })]);
        expect(report.engines[0]!.label).toMatch(/^Chromium \d+$/);
        expect(report.findings).toEqual([]);
        expect(ran.code).toBe(0);
      } finally {
        await server.stop();
      }
    },
    240_000,
  );
});
