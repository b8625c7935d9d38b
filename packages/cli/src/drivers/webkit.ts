import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebKitSession, withTimeout } from '@origin-lab/engines';
import {
  PROBE_PATH,
  PROBE_SCRIPT,
  runInPage,
  type Context,
  type ProbeRequest,
  type ProbeResult,
} from './probe-page.js';
import {
  NOT_SERVED_HERE,
  SILENT,
  type DriverLaunch,
  type NotThisOrigin,
  type OriginPage,
  type ProbeDriver,
} from './driver.js';
import { ProbeProxy, selfSignedCertificates } from './probe-proxy.js';

/** The address WebKit's driver reaches the browser at: it never goes through the proxy. */
const DRIVER_LOOPBACK = '127.0.0.1';

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver (classic WebDriver, on an Xvfb display in a
 * process group of its own: @origin-lab/engines' WebKitSession). One session serves the whole
 * run: each origin's probe page comes through the probe proxy (probe-proxy.ts); requests to the
 * target go to the real network (through the proxy's tunnel, or straight to 127.0.0.1). WebKit
 * tells a driver nothing of its network and has no console over classic WebDriver: what it did
 * comes from the page alone, and why from the rules.
 */
export class WebKitProbeDriver implements ProbeDriver {
  readonly name = 'webkit';
  /** One WebDriver session, one window: one origin at a time. */
  readonly pagesAtOnce = 1;

  private constructor(
    readonly label: string,
    readonly version: string,
    private readonly session: WebKitSession,
    private readonly proxy: ProbeProxy,
    private readonly timeoutMs: number,
  ) {}

  static async start(launch: DriverLaunch): Promise<WebKitProbeDriver> {
    // An origin the URL standard refuses (a | in its host) gets no certificate: no engine loads it.
    const https = launch.origins
      .filter((origin) => origin.startsWith('https:') && URL.canParse(origin))
      .map((origin) => new URL(origin).hostname);
    const certificates = await selfSignedCertificates([...new Set(https)]);
    const proxy = await ProbeProxy.start(launch.origins, certificates, launch.timeoutMs);
    try {
      const proxyUrl = `http://${DRIVER_LOOPBACK}:${proxy.port}`;
      const session = await WebKitSession.start({
        env: { http_proxy: proxyUrl, https_proxy: proxyUrl, no_proxy: DRIVER_LOOPBACK },
        // Written under the session's own HOME, removed with it.
        certificates: (home) =>
          [...certificates].map(([host, { cert }], index) => {
            const certificateFile = join(home, `probe-${index}.pem`);
            writeFileSync(certificateFile, cert);
            return { host, certificateFile };
          }),
        timeoutMs: launch.timeoutMs * 3,
        ...(launch.programs.webkit?.miniBrowser && {
          programs: { driver: launch.programs.webkit.path, miniBrowser: launch.programs.webkit.miniBrowser },
        }),
      });
      const version = session.version;
      return new WebKitProbeDriver(
        `WebKit (GTK) ${version.split('.').slice(0, 2).join('.')}`,
        version,
        session,
        proxy,
        launch.timeoutMs,
      );
    } catch (err) {
      await proxy.stop();
      throw err;
    }
  }

  async openOrigin(origin: string): Promise<OriginPage | NotThisOrigin> {
    if (URL.canParse(origin) && new URL(origin).hostname === DRIVER_LOOPBACK)
      return {
        refused: `${NOT_SERVED_HERE}: WebKit's driver talks to the browser on ${DRIVER_LOOPBACK}, so no probe page can be served there`,
      };
    try {
      await withTimeout(this.session.browser.url(`${origin}${PROBE_PATH}`), this.timeoutMs, `loading ${origin}`);
    } catch (err) {
      return { refused: String((err as Error).message).split('\n')[0]! };
    }
    const [at, ready] = (await this.session.browser.execute(() => [location.origin, '__originLabProbe' in self])) as [
      string,
      boolean,
    ];
    if (!ready) return { refused: `the engine showed ${at}, not the probe page (it could not load that address)` };
    const browser = this.session.browser;
    return {
      origin: at,
      async send(context: Context, request: ProbeRequest) {
        const result = (await withTimeout(
          browser.execute(runInPage, { context, request, script: PROBE_SCRIPT }),
          request.timeoutMs + 10_000,
          `webkit sending ${request.method} ${request.url}`,
        )) as ProbeResult;
        return { result, engine: SILENT };
      },
      async close() {
        // One session serves every origin: the next origin's page replaces this one.
      },
    };
  }

  async close(): Promise<void> {
    await this.session.close();
    await this.proxy.stop();
  }
}
