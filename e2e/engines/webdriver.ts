import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Key, remote } from 'webdriverio';
import { webkitDriver } from '../browsers.js';
import type { BrowserSettings } from '../stacks/stack.js';
import { FINISHED, type EnginePage, type ExperimentResult } from './engine.js';
import { startLoopbackProxy, type LoopbackProxy } from './loopback-proxy.js';
import { verifiedServerCertificates } from './pinned-certificates.js';
import { webkitCapabilities } from './webkit-capabilities.js';

/** Every wait here is bounded: these are the bounds. */
const DRIVER_READY_MS = 20_000;
const SESSION_MS = 30_000;
const PAGE_LOAD_MS = 20_000;
const STOP_MS = 5_000;

/**
 * Runs the rest of its arguments and stays beside them in their process group: when the worker
 * that started it is gone (however it ended, SIGKILL included) or the driver exits, it kills the
 * whole group. dbus-run-session and the accessibility bus daemons outlive a killed driver
 * otherwise (PLATFORM.md).
 */
const WATCHDOG = `parent=$1; shift
"$@" &
while kill -0 "$parent" 2>/dev/null && kill -0 $! 2>/dev/null; do sleep 1; done
kill -KILL 0`;

type Browser = WebdriverIO.Browser;

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver, over classic W3C WebDriver (this build has no
 * BiDi): no console and no network events, so everything comes from the page. There is no
 * headless mode: the driver runs on an Xvfb display with a session bus of its own, all in one
 * process group that close() stops, as does the worker's exit (and the watchdog, if the worker
 * is killed). On a stack with names no DNS answers, a forward proxy of its own sends them to
 * loopback (webkit-capabilities.ts); close() stops it too.
 */
export class WebDriverPage implements EnginePage {
  private closed = false;

  private constructor(
    readonly label: string,
    private readonly browser: Browser,
    private readonly driver: DriverGroup,
    private readonly proxy: LoopbackProxy | undefined,
  ) {}

  static async open(settings: BrowserSettings): Promise<WebDriverPage> {
    const proxy = settings.loopbackNames.length > 0 ? await startLoopbackProxy(settings.loopbackNames) : undefined;
    let driver: DriverGroup;
    try {
      driver = await DriverGroup.start();
    } catch (err) {
      await proxy?.stop();
      throw err;
    }
    try {
      const certificates = await verifiedServerCertificates(settings, driver.home);
      const browser = await withTimeout(
        remote({
          hostname: '127.0.0.1',
          port: driver.port,
          path: '/',
          logLevel: 'silent',
          connectionRetryTimeout: SESSION_MS,
          connectionRetryCount: 0,
          capabilities: webkitCapabilities(certificates, proxy?.port),
        }),
        SESSION_MS,
        'a WebKitWebDriver session',
      );
      const version = sessionVersion(browser);
      const label = `WebKit (GTK) ${version.split('.').slice(0, 2).join('.') || '?'}`;
      return new WebDriverPage(label, browser, driver, proxy);
    } catch (err) {
      await driver.stop();
      await proxy?.stop();
      throw new Error(`WebKit could not start: ${(err as Error).message}\n${driver.lastOutput()}`, { cause: err });
    }
  }

  /** WebKitGTK's own version, as the session reports it (e.g. 2.50.6). */
  get version(): string {
    return sessionVersion(this.browser);
  }

  async open(url: string): Promise<void> {
    await withTimeout(this.browser.url(url), PAGE_LOAD_MS, `loading ${url}`);
    const origin = new URL(url).origin;
    try {
      await this.browser.waitUntil(async () => (await this.text('#origin-self')) === origin, {
        timeout: PAGE_LOAD_MS,
        interval: 250,
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
   * (webkit-capabilities.ts), so the two are the same; a viewport that still differs is an error.
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

  /** A real click on the option (WebDriver's element click selects it, with the change event). */
  async select(selector: string, value: string): Promise<void> {
    await this.browser.$(selector).selectByAttribute('value', value);
  }

  /** Written under the session's own HOME (removed with it), then sent as the input's keys, one path a line. */
  async chooseFiles(selector: string, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    const folder = mkdtempSync(join(this.driver.home, 'files-'));
    const paths = files.map(({ name, buffer }) => {
      const path = join(folder, name);
      writeFileSync(path, buffer);
      return path;
    });
    await this.browser.$(selector).addValue(paths.join('\n'));
  }

  async waitFor(fn: () => boolean, timeout: number, what: string): Promise<void> {
    await this.browser.waitUntil(async () => (await this.browser.execute(fn)) === true, {
      timeout,
      interval: 250,
      timeoutMsg: `${what}: not within ${timeout} ms`,
    });
  }

  /** "Run all" needs a real WebDriver element click: a script's click() does not start it (measured). */
  async runAll(timeout: number): Promise<Record<string, ExperimentResult>> {
    await this.browser.$('#run-all').click();
    try {
      await this.browser.waitUntil(
        async () => (await this.browser.execute(() => document.body.dataset.ranAll)) === 'true',
        { timeout, interval: 250 },
      );
    } catch (err) {
      const unfinished = Object.entries(await this.readAll())
        .filter(([, { state }]) => /^(idle|running)$/.test(state))
        .map(([id, { state }]) => `${id} (${state})`);
      throw new Error(`"Run all" did not finish within ${timeout} ms; not finished: ${unfinished.join(', ')}`, {
        cause: err,
      });
    }
    return this.readAll();
  }

  async runExperiment(id: string, timeout: number): Promise<ExperimentResult> {
    await this.browser.$(`section#${id}`).$('button=Run').click();
    await this.waitForVerdict(id, timeout);
    return this.read(id);
  }

  async waitForVerdict(id: string, timeout: number): Promise<void> {
    await this.browser.waitUntil(
      async () => {
        try {
          return FINISHED.test((await this.read(id)).state);
        } catch {
          return false; // Between two documents (the experiment left the page): ask again.
        }
      },
      { timeout, interval: 250, timeoutMsg: `${id} had no verdict within ${timeout} ms` },
    );
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await withTimeout(this.browser.deleteSession(), STOP_MS, 'ending the WebDriver session');
    } catch {
      // The group is stopped below either way.
    } finally {
      await this.driver.stop();
      await this.proxy?.stop();
    }
  }
}

/** Xvfb, a session bus and WebKitWebDriver, in a process group of their own. */
class DriverGroup {
  /** The groups still running in this process: one exit listener kills them all (a classroom runs many at once). */
  private static readonly running = new Set<DriverGroup>();
  static {
    process.on('exit', () => DriverGroup.running.forEach((group) => group.kill('SIGKILL')));
  }

  private output = '';

  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
    /** The group's HOME, removed when it stops: the session's own files go here too. */
    readonly home: string,
  ) {
    DriverGroup.running.add(this);
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-4000);
    });
  }

  /**
   * One group starts at a time in a worker: `xvfb-run -a` picks the first display without a lock
   * file, and groups started at once (a classroom's pages) picked the same one (measured: "cannot
   * open display"). Each waits for the one before it to be ready or to fail.
   */
  static start(): Promise<DriverGroup> {
    const started = DriverGroup.starting.then(() => DriverGroup.startNow());
    DriverGroup.starting = started.then(
      () => undefined,
      () => undefined,
    );
    return started;
  }

  private static starting: Promise<void> = Promise.resolve();

  private static async startNow(): Promise<DriverGroup> {
    const port = await freePort();
    const home = mkdtempSync(join(tmpdir(), 'origin-lab-webkit-'));
    const child = spawn(
      'sh',
      [
        '-c',
        WATCHDOG,
        'watchdog',
        String(process.pid),
        'xvfb-run',
        '-a',
        '-s',
        '-screen 0 1280x900x24',
        'dbus-run-session',
        webkitDriver,
        `--port=${port}`,
        '--host=127.0.0.1',
      ],
      // detached: setsid, a process group of its own, stopped as one.
      { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, HOME: home } },
    );
    const group = new DriverGroup(port, child, home);
    try {
      await group.waitReady();
      return group;
    } catch (err) {
      await group.stop();
      throw err;
    }
  }

  private async waitReady(): Promise<void> {
    const deadline = Date.now() + DRIVER_READY_MS;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`WebKitWebDriver exited at start:\n${this.output}`);
      try {
        const answer = await fetch(`http://127.0.0.1:${this.port}/status`, { signal: AbortSignal.timeout(1_000) });
        const body = (await answer.json()) as { value?: { ready?: boolean } };
        if (body.value?.ready) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`WebKitWebDriver was not ready within ${DRIVER_READY_MS} ms:\n${this.output}`);
  }

  lastOutput(): string {
    return this.output;
  }

  /** SIGTERM to the group (xvfb-run removes its files), then SIGKILL to what is left after a bounded wait. */
  async stop(): Promise<void> {
    this.kill('SIGTERM');
    const deadline = Date.now() + STOP_MS;
    while (Date.now() < deadline && this.groupAlive()) await new Promise((resolve) => setTimeout(resolve, 100));
    this.kill('SIGKILL');
    DriverGroup.running.delete(this);
    rmSync(this.home, { recursive: true, force: true });
  }

  private kill(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // The group is gone.
    }
  }

  private groupAlive(): boolean {
    try {
      process.kill(-this.child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** The browserVersion a WebDriver session reports, or '' where it reports none. */
function sessionVersion(browser: Browser): string {
  return String((browser.capabilities as { browserVersion?: string }).browserVersion ?? '');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
