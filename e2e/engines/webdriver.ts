import { WebKitSession, WebKitSessionError, withTimeout } from '@origin-lab/engines';
import { Key } from 'webdriverio';
import type { BrowserSettings } from '../stacks/stack.js';
import {
  ASKING,
  FINISHED,
  noVerdict,
  waitAtAskingPace,
  writeChosenFiles,
  whereaboutsOf,
  whereaboutsScript,
  type EnginePage,
  type ExperimentResult,
  type Whereabouts,
} from './engine.js';
import { startLoopbackProxy, type LoopbackProxy } from './loopback-proxy.js';
import { verifiedServerCertificates } from './pinned-certificates.js';

/** Every wait here is bounded: these are the bounds (the driver's own are in @origin-lab/engines). */
const SESSION_MS = 30_000;
const PAGE_LOAD_MS = 20_000;
/** How long a click has to show its first effect, and how many are sent (clickThatLands). */
const CLICK_LANDS_MS = 3_000;
const CLICKS = 3;

type Browser = WebdriverIO.Browser;

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver, over classic W3C WebDriver (this build has no
 * BiDi): no console and no network events, so everything comes from the page. There is no
 * headless mode: the session (@origin-lab/engines: webkit-session.ts) runs the driver on an Xvfb
 * display with a session bus of its own, all in one process group that close() stops, as does the worker's exit (and the watchdog, if the worker
 * is killed). On a stack with names no DNS answers, a forward proxy of its own sends them to
 * loopback (@origin-lab/engines: webkit-capabilities.ts); close() stops it too.
 */
export class WebDriverPage implements EnginePage {
  private closed = false;

  private constructor(
    readonly label: string,
    private readonly session: WebKitSession,
    private readonly proxy: LoopbackProxy | undefined,
  ) {}

  static async open(settings: BrowserSettings): Promise<WebDriverPage> {
    const proxy = settings.loopbackNames.length > 0 ? await startLoopbackProxy(settings.loopbackNames) : undefined;
    try {
      const session = await WebKitSession.start({
        certificates: (home) => verifiedServerCertificates(settings, home),
        proxyPort: proxy?.port,
        timeoutMs: SESSION_MS,
      });
      const label = `WebKit (GTK) ${session.version.split('.').slice(0, 2).join('.') || '?'}`;
      return new WebDriverPage(label, session, proxy);
    } catch (err) {
      await proxy?.stop();
      if (!(err instanceof WebKitSessionError)) throw err;
      throw new Error(`WebKit could not start: ${err.message}\n${err.driverOutput}`, { cause: err.cause });
    }
  }

  /** WebKitGTK's own version, as the session reports it (e.g. 2.50.6). */
  get version(): string {
    return this.session.version;
  }

  private get browser(): Browser {
    return this.session.browser;
  }

  async open(url: string): Promise<void> {
    await withTimeout(this.browser.url(url), PAGE_LOAD_MS, `loading ${url}`);
    const origin = new URL(url).origin;
    try {
      // At the slower pace: a load's end often leads to the next navigation, and what a page's
      // lifecycle sends may depend on how soon it is left. With quicker asks here a clean clone
      // lost an exit beacon in WebKit behind Caddy (seen once before, so the cause is not known).
      await this.browser.waitUntil(async () => (await this.text('#origin-self')) === origin, {
        timeout: PAGE_LOAD_MS,
        interval: ASKING.intervalMs,
      });
    } catch (err) {
      // WebKit's own error page (a TLS or network failure) says why; so does the page's text.
      const shown = (await this.evaluate(() => `${location.href}: ${document.body?.innerText ?? ''}`)).slice(0, 300);
      throw new Error(
        `${url}: #origin-self did not show ${origin} within ${PAGE_LOAD_MS} ms; the page shows ${shown}`,
        {
          cause: err,
        },
      );
    }
  }

  /**
   * Waits until condition holds, at the ASKING pace (each ask a WebDriver round trip); at most
   * timeout ms in all, then fails with timeoutMsg.
   */
  private until(condition: () => Promise<boolean>, timeout: number, timeoutMsg?: string): Promise<void> {
    return waitAtAskingPace(timeout, (bound, interval) =>
      this.browser.waitUntil(condition, { timeout: bound, interval, timeoutMsg }),
    );
  }

  text(selector: string): Promise<string | null> {
    return this.browser.execute((sel: string) => document.querySelector(sel)?.textContent ?? null, selector) as Promise<
      string | null
    >;
  }

  async navigate(url: string): Promise<void> {
    await withTimeout(this.browser.url(url), PAGE_LOAD_MS, `loading ${url}`);
  }

  /** WebDriver's Execute Script awaits a promise the script returns (W3C; measured in WebKitGTK 2.50). */
  evaluate<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.browser.execute(fn) as Promise<T>;
  }

  async addScript(source: string): Promise<void> {
    await this.browser.execute(source);
  }

  /**
   * WebDriver sets the window, not the viewport: MiniBrowser runs full-screen, without its toolbar
   * (@origin-lab/engines: webkit-capabilities.ts), so the two are the same; a viewport that still differs is an error.
   */
  async setViewport(width: number, height: number): Promise<void> {
    await this.browser.setWindowSize(width, height);
    const [innerWidth, innerHeight] = await this.evaluate(() => [window.innerWidth, window.innerHeight] as const);
    if (innerWidth !== width || innerHeight !== height)
      throw new Error(`WebKit's viewport is ${innerWidth} x ${innerHeight}, not ${width} x ${height}`);
  }

  async focus(selector: string): Promise<void> {
    await this.browser.execute((sel: string) => (document.querySelector(sel) as HTMLElement | null)?.focus(), selector);
  }

  /** A real key press through WebDriver's actions (webdriverio's keys): a named key as its code point, a character as itself. */
  async press(key: string): Promise<void> {
    await this.browser.keys(key === 'Tab' || key === 'Enter' ? Key[key] : key);
  }

  async click(selector: string): Promise<void> {
    await this.browser.$(selector).click();
  }

  /**
   * WebDriver's Switch To Frame, the element click there, then back to the page. The frame is
   * scrolled into the page's view first: WebKitWebDriver scrolls the element within its frame but
   * not the frame within the page, and a click on a frame below the view reached nothing (no
   * event, no error; measured with WebKitGTK 2.50).
   */
  async clickInFrame(frame: string, selector: string, timeout: number): Promise<void> {
    const frameElement = this.browser.$(frame);
    await frameElement.waitForExist({ timeout });
    await this.browser.execute(
      (sel: string) => document.querySelector(sel)?.scrollIntoView({ block: 'center' }),
      frame,
    );
    await this.browser.switchToFrame(await frameElement.getElement());
    try {
      const target = this.browser.$(selector);
      await target.waitForExist({ timeout });
      await target.click();
    } finally {
      await this.browser.switchToParentFrame();
    }
  }

  /** No command of this driver answers WebKitGTK's storage access prompt. */
  allowStorageAccess(): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** A real click on the option (WebDriver's element click selects it, with the change event). */
  async select(selector: string, value: string): Promise<void> {
    await this.browser.$(selector).selectByAttribute('value', value);
  }

  /** Written under the session's own HOME (removed with it), then sent as the input's keys, one path a line. */
  async chooseFiles(selector: string, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    await this.browser.$(selector).addValue(writeChosenFiles(this.session.home, files).join('\n'));
  }

  async waitFor(fn: () => boolean, timeout: number, what: string): Promise<void> {
    await this.until(
      async () => (await this.browser.execute(fn)) === true,
      timeout,
      `${what}: not within ${timeout} ms`,
    );
  }

  /**
   * WebDriver's element click, then a look at whether it landed: landed(selector) runs in the
   * page and says whether the click's first effect is there. Once, on the isolation page under a
   * clean clone's load, WebKitWebDriver's click on "Run all" reached nothing, with no event and no
   * error (its cause not found; Playwright checks what its click will hit, this driver does not).
   * A click that did not land is sent again, at most CLICKS times; then the step fails, naming it.
   */
  private async clickThatLands(selector: string, landed: (selector: string) => boolean, what: string): Promise<void> {
    // A page between two documents has landed: the click started something that navigates.
    const hasLanded = () =>
      this.browser.execute(landed, selector).then(
        (yes) => yes === true,
        () => true,
      );
    for (let attempt = 1; attempt <= CLICKS; attempt++) {
      await this.browser.$(selector).click();
      try {
        await this.until(hasLanded, CLICK_LANDS_MS);
        return;
      } catch {
        // Not landed: again.
      }
    }
    throw new Error(`${what} at ${await this.url()}: ${CLICKS} clicks on ${selector} did not land (nothing started)`);
  }

  /** "Run all" needs a real WebDriver element click: a script's click() does not start it (measured). */
  async runAll(timeout: number): Promise<Record<string, ExperimentResult>> {
    // The button is disabled while it runs: a second click on it does nothing.
    await this.clickThatLands(
      '#run-all',
      (sel) =>
        document.querySelector<HTMLButtonElement>(sel)?.disabled !== false || document.body.dataset.ranAll === 'true',
      '"Run all"',
    );
    try {
      await this.until(
        async () => (await this.browser.execute(() => document.body.dataset.ranAll)) === 'true',
        timeout,
      );
    } catch (err) {
      const unfinished = Object.entries(await this.readAll())
        .filter(([, { state }]) => /^(idle|running)$/.test(state))
        .map(([id, { state }]) => `${id} (${state})`);
      const message = `"Run all" at ${await this.url()} did not finish within ${timeout} ms; not finished: ${unfinished.join(', ')}`;
      throw new Error(message, { cause: err });
    }
    return this.readAll();
  }

  async runExperiment(id: string, timeout: number): Promise<ExperimentResult> {
    await this.browser.$(`section#${id}`).$('button=Run').click();
    await this.waitForVerdict(id, timeout);
    return this.read(id);
  }

  async waitForVerdict(id: string, timeout: number): Promise<void> {
    try {
      await this.until(async () => {
        try {
          return FINISHED.test((await this.read(id)).state);
        } catch {
          return false; // Between two documents (the experiment left the page): ask again.
        }
      }, timeout);
    } catch (err) {
      const reading = this.browser.execute(whereaboutsScript, whereaboutsOf(id)) as Promise<Whereabouts>;
      throw await noVerdict(id, timeout, reading, err);
    }
  }

  url(): Promise<string> {
    return this.browser.getUrl();
  }

  async read(id: string): Promise<ExperimentResult> {
    const raw = (await this.browser.execute((sectionId: string) => {
      const section = document.getElementById(sectionId);
      return {
        state: section?.dataset.state ?? 'missing',
        observed: section?.querySelector('output')?.dataset.observed ?? '{}',
      };
    }, id)) as { state: string; observed: string };
    return { state: raw.state, observed: JSON.parse(raw.observed) as Record<string, any> };
  }

  ids(): Promise<string[]> {
    return this.browser.execute(() =>
      Array.from(document.querySelectorAll('section.experiment'), (s) => s.id),
    ) as Promise<string[]>;
  }

  /** Every experiment "Run all" runs (not the manual ones), read in one round trip. */
  private async readAll(): Promise<Record<string, ExperimentResult>> {
    const raw = (await this.browser.execute(() =>
      Array.from(document.querySelectorAll<HTMLElement>('section.experiment:not([data-manual])'), (s) => [
        s.id,
        s.dataset.state ?? 'missing',
        s.querySelector('output')?.dataset.observed ?? '{}',
      ]),
    )) as unknown as [string, string, string][];
    return Object.fromEntries(
      raw.map(([id, state, observed]) => [id, { state, observed: JSON.parse(observed) as Record<string, any> }]),
    );
  }

  /** WebKitGTK tells a classic WebDriver client nothing of its console. */
  consoleMessages(): Promise<null> {
    return Promise.resolve(null);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.session.close();
    } finally {
      await this.proxy?.stop();
    }
  }
}
