import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunch, firefoxLaunch, removeLaunchFolders, WebKitSession } from '@origin-lab/engines';
import cors from 'cors';
import express from 'express';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PROBE_PATH } from '../src/drivers/probe-page.js';
import { ProbeProxy } from '../src/drivers/probe-proxy.js';
import { expressReflectingAll, YOURS, type Fixture } from './fixtures.js';
import { check, ENGINES, oneEngine } from './run-check.js';

// --proof: the page a security report attaches. Written by the check, opened here as a reader
// would open it: hosted at the attacker origin (each engine serves it there, as for the probe
// page) in every engine, where it must read what the check saw: the fixture's answer, status 200,
// {"me":"someone"} (16 characters). A page that changes state waits for its button.

const CHECK_MS = 240_000;
const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-proof-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  // The browsers' homes: a test worker is ended without running its exit handlers.
  removeLaunchFolders();
});

/** What a proof page shows once its request is done: read or refused, the status and the body's length. */
interface Shown {
  state: string;
  status: string;
  length: string;
}

const shownScript = () => ({
  state: document.body.dataset.state ?? '',
  status: document.body.dataset.status ?? '',
  length: document.body.dataset.length ?? '',
});

/**
 * Chromium as the check starts it against a target on this machine counted as public
 * (--local-network public): the fixture's address is public to it, so Local Network Access does
 * not stand in the way of a page at a public name.
 */
function chromiumCountingPublic(target: string) {
  const options = chromiumLaunch();
  const { hostname, port } = new URL(target);
  return { ...options, args: [...(options.args ?? []), `--ip-address-space-overrides=${hostname}:${port}=public`] };
}

/** Opens each page at origin in Chromium or Firefox (Playwright serving that one document), presses its button, returns what each shows. */
async function openInPlaywright(
  engine: 'chromium' | 'firefox',
  origin: string,
  pages: readonly string[],
  target: string,
): Promise<Shown[]> {
  const { chromium, firefox } = await import('playwright-core');
  // Firefox: the run's shared one where there is one (shared-engines.ts); closing it only disconnects.
  const shared = inject('firefoxServer');
  const browser = await (engine === 'chromium'
    ? chromium.launch(chromiumCountingPublic(target))
    : shared
      ? firefox.connect(shared)
      : firefox.launch(firefoxLaunch()));
  try {
    const shown: Shown[] = [];
    for (const html of pages) {
      const page = await browser.newPage();
      await page.route(`${origin}${PROBE_PATH}`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
      await page.goto(`${origin}${PROBE_PATH}`, { timeout: 30_000 });
      // The route stays only for the document: the request the button sends goes to the network.
      await page.unrouteAll({ behavior: 'wait' });
      await page.click('#send');
      await page.waitForFunction(() => ['read', 'refused'].includes(document.body.dataset.state ?? ''), null, {
        timeout: 30_000,
      });
      shown.push(await page.evaluate(shownScript));
      await page.close();
    }
    return shown;
  } finally {
    await browser.close();
  }
}

/** The same in WebKit: the check's own forward proxy serves each page at origin in turn. */
async function openInWebKit(origin: string, pages: readonly string[]): Promise<Shown[]> {
  let current = pages[0]!;
  const proxy = await ProbeProxy.start([origin], new Map(), 10_000, () => current);
  const address = `http://127.0.0.1:${proxy.port}`;
  try {
    const session = await WebKitSession.start({
      env: { http_proxy: address, https_proxy: address, no_proxy: '127.0.0.1' },
      timeoutMs: 60_000,
    });
    try {
      const browser = session.browser;
      const shown: Shown[] = [];
      for (const html of pages) {
        current = html;
        await browser.url(`${origin}${PROBE_PATH}`);
        await browser.execute(() => document.getElementById('send')!.click());
        await browser.waitUntil(async () => ['read', 'refused'].includes((await browser.execute(shownScript)).state), {
          timeout: 30_000,
          interval: 200,
        });
        shown.push(await browser.execute(shownScript));
      }
      return shown;
    } finally {
      await session.close();
    }
  } finally {
    await proxy.stop();
  }
}

/** Each page opened at origin in one engine (one browser for all of them). */
const openIn = (engine: string, origin: string, pages: readonly string[], target: string) =>
  engine === 'webkit'
    ? openInWebKit(origin, pages)
    : openInPlaywright(engine as 'chromium' | 'firefox', origin, pages, target);

/** express with cors({ origin: true, credentials: true }) that counts the DELETE requests it gets. */
async function countingDeletes(): Promise<Fixture & { deletes(): number }> {
  let deletes = 0;
  const app = express();
  app.use(cors({ origin: true, credentials: true }));
  app.all('/me', (req, res) => {
    if (req.method === 'DELETE') deletes += 1;
    res.json({ me: 'someone' });
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/me`,
    deletes: () => deletes,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(ENGINES.length === 0)(`check --proof (${ENGINES.join(', ')})`, () => {
  it(
    'one page per high finding and origin; hosted at the attacker origin (or any site, for null) it reads what the check read, in every engine',
    async () => {
      const server = await expressReflectingAll();
      const dir = join(scratch, 'reads');
      try {
        const { report } = await check(server.url, [
          '--from',
          YOURS,
          '--hostile',
          'arbitrary,null',
          '--proof',
          dir,
          ...oneEngine('chromium'),
        ]);
        expect(readdirSync(dir).sort()).toEqual([
          '01-hostile-read-credentials-attacker-test.html',
          '02-hostile-read-credentials-null-sandboxed-frame.html',
          '03-hostile-read-credentials-null-data-worker.html',
          'index.html',
        ]);
        expect(report.proofs?.pages.map((page) => page.origin)).toEqual([
          'http://attacker.test',
          'null (sandboxed frame)',
          'null (data worker)',
        ]);
        const page = readFileSync(join(dir, '01-hostile-read-credentials-attacker-test.html'), 'utf8');
        const frame = readFileSync(join(dir, '02-hostile-read-credentials-null-sandboxed-frame.html'), 'utf8');
        // What the check read: status 200 and {"me":"someone"}, from the page and from a null frame.
        const read = { state: 'read', status: '200', length: '16' };
        for (const engine of ENGINES)
          expect(await openIn(engine, 'http://attacker.test', [page, frame], server.url), engine).toEqual([read, read]);
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );

  it(
    'a write as the user: its page sends nothing until its button is pressed, then sends it once',
    async () => {
      const server = await countingDeletes();
      const dir = join(scratch, 'write');
      try {
        await check(server.url, [
          '--from',
          YOURS,
          '--hostile',
          'arbitrary',
          '--methods',
          'DELETE',
          '--proof',
          dir,
          ...oneEngine('chromium'),
        ]);
        const file = readdirSync(dir).find((name) => name.includes('hostile-write'))!;
        const html = readFileSync(join(dir, file), 'utf8');
        expect(html).toContain('it is sent only when you press the button');
        const sentByCheck = server.deletes();
        const { chromium } = await import('playwright-core');
        const browser = await chromium.launch(chromiumCountingPublic(server.url));
        try {
          const page = await browser.newPage();
          await page.route(`http://attacker.test${PROBE_PATH}`, (route) =>
            route.fulfill({ contentType: 'text/html', body: html }),
          );
          await page.goto(`http://attacker.test${PROBE_PATH}`);
          await page.unrouteAll({ behavior: 'wait' });
          expect(await page.textContent('#status')).toBe('Not sent yet.');
          await page.click('#send');
          await page.waitForFunction(() => ['read', 'refused'].includes(document.body.dataset.state ?? ''), null, {
            timeout: 30_000,
          });
          expect(await page.textContent('#status')).toMatch(/^Read from http:\/\/attacker\.test: status 200/);
          expect(server.deletes()).toBe(sentByCheck + 1);
        } finally {
          await browser.close();
        }
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );
});
