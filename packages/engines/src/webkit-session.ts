import type {} from 'webdriverio';
import { webkitCapabilities, type HostCertificate } from './webkit-capabilities.js';
import { DriverGroup, withTimeout } from './webkit-driver.js';

/** Every wait here is bounded: ending a session may take this long before the group is stopped anyway. */
const END_SESSION_MS = 5_000;

export interface WebKitSessionOptions {
  /** Added to the driver group's environment; the browser inherits it (`check` names its proxy there). */
  env?: Record<string, string>;
  /**
   * The certificates WebKit is to accept, per host (webkit-capabilities.ts), given the group's
   * HOME to write their files in: they go when the group stops.
   */
  certificates?: (home: string) => HostCertificate[] | Promise<HostCertificate[]>;
  /** A forward proxy on 127.0.0.1 that carries every request (the W3C `proxy` capability). */
  proxyPort?: number;
  /** The longest wait for the driver to start (never under 20 s: webkit-driver.ts), and then for the session to open. */
  timeoutMs: number;
  /** WebKit's WebDriver and the MiniBrowser it starts, when found elsewhere than Debian puts them (find-engines.ts). */
  programs?: { driver: string; miniBrowser: string };
  /** MiniBrowser's own switches beside those every session has (`check --session` adds --enable-itp). */
  browserArgs?: string[];
}

/** A session that did not open after its driver started: the driver's last words come with it. */
export class WebKitSessionError extends Error {
  constructor(
    cause: unknown,
    /** What the driver group wrote to stderr (its last 4000 characters). */
    readonly driverOutput: string,
  ) {
    super(String((cause as Error)?.message ?? cause), { cause });
  }
}

/**
 * One MiniBrowser through WebKitWebDriver, as the e2e suite and `origin-lab check` open it: the
 * driver in a group of its own (DriverGroup, on an Xvfb display), then one classic WebDriver
 * session with the capabilities of webkit-capabilities.ts. A session that fails to open stops its
 * group before the error is thrown; close() ends the session and stops the group.
 */
export class WebKitSession {
  private closed = false;

  private constructor(
    readonly browser: WebdriverIO.Browser,
    private readonly driver: DriverGroup,
  ) {}

  static async start(options: WebKitSessionOptions): Promise<WebKitSession> {
    const driver = await DriverGroup.start(options.env, options.programs?.driver, options.timeoutMs);
    try {
      const certificates = (await options.certificates?.(driver.home)) ?? [];
      const { remote } = await import('webdriverio');
      const browser = await withTimeout(
        remote({
          hostname: '127.0.0.1',
          port: driver.port,
          path: '/',
          logLevel: 'silent',
          connectionRetryTimeout: options.timeoutMs,
          connectionRetryCount: 0,
          capabilities: webkitCapabilities(
            certificates,
            options.proxyPort,
            options.programs?.miniBrowser,
            options.browserArgs,
          ),
        }),
        options.timeoutMs,
        'a WebKitWebDriver session',
      );
      return new WebKitSession(browser, driver);
    } catch (err) {
      await driver.stop();
      throw new WebKitSessionError(err, driver.lastOutput());
    }
  }

  /** WebKitGTK's own version, as the session reports it (e.g. 2.50.6), or '' where it reports none. */
  get version(): string {
    return String((this.browser.capabilities as { browserVersion?: string }).browserVersion ?? '');
  }

  /** The driver group's HOME, removed when it stops: files the session reads may go here. */
  get home(): string {
    return this.driver.home;
  }

  /** Ends the session (bounded), then stops the driver's group, whether or not the session ended. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await withTimeout(this.browser.deleteSession(), END_SESSION_MS, 'ending the WebDriver session');
    } catch {
      // The group is stopped below either way.
    } finally {
      await this.driver.stop();
    }
  }
}
