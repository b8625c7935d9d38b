import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeLaunchFolders } from '@origin-lab/engines';
import cors from 'cors';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { PROBE_PATH } from '../src/drivers/probe-page.js';
import { YOURS, type Fixture } from './fixtures.js';
import { chromiumCountingPublic } from './proof-pages.js';
import { check, ENGINES, oneEngine, oneEngineName } from './run-check.js';

// --proof: the page a security report attaches, for a write as the user: opened here as a reader
// would open it, hosted at the attacker origin, it sends nothing until its button is pressed.
// The pages of reads, opened in every engine, are check-risks.test.ts's (its run against
// cors({ origin: true, credentials: true }) writes them).

const CHECK_MS = 240_000;
const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-proof-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  // The browsers' homes: a test worker is ended without running its exit handlers.
  removeLaunchFolders();
});

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

describe.skipIf(ENGINES.length === 0)(`check --proof (${oneEngineName('chromium')})`, () => {
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
