/**
 * Opens the pages `check --proof` writes as a reader of a security report would: hosted at the
 * attacker origin (each engine serves it there, as for the probe page), the button pressed, and
 * what the page then shows read back. Used by check-proof.test.ts and by check-risks.test.ts,
 * whose run against cors({ origin: true, credentials: true }) also writes its proof pages.
 */
import { chromiumLaunch, firefoxLaunch, WebKitSession } from '@origin-lab/engines';
import { inject } from 'vitest';
import { PROBE_PATH } from '../src/drivers/probe-page.js';
import { ProbeProxy } from '../src/drivers/probe-proxy.js';

/** What a proof page shows once its request is done: read or refused, the status and the body's length. */
export interface Shown {
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
export function chromiumCountingPublic(target: string) {
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
export const openIn = (engine: string, origin: string, pages: readonly string[], target: string) =>
  engine === 'webkit'
    ? openInWebKit(origin, pages)
    : openInPlaywright(engine as 'chromium' | 'firefox', origin, pages, target);
