import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect as tlsConnect, rootCertificates } from 'node:tls';
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
  type SessionCookieSpec,
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
 *
 * With a session (--session), its cookies are set once, through WebDriver on a page of the target
 * (the one way WebDriver adds a cookie), and kept for the whole run: WebKit's own cookie policy
 * then decides what goes out, with Intelligent Tracking Prevention on as Safari has it (WebKitGTK's
 * own default leaves it off). WebDriver cannot set a Partitioned cookie; such a cookie is left out.
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
    const targets = await vouchedCertificates(launch);
    const proxy = await ProbeProxy.start(launch.origins, certificates, launch.timeoutMs, undefined, launch.resolve);
    try {
      const proxyUrl = `http://${DRIVER_LOOPBACK}:${proxy.port}`;
      const session = await WebKitSession.start({
        env: { http_proxy: proxyUrl, https_proxy: proxyUrl, no_proxy: DRIVER_LOOPBACK },
        // Written under the session's own HOME, removed with it.
        certificates: (home) =>
          [...certificates, ...targets].map(([host, { cert }], index) => {
            const certificateFile = join(home, `probe-${index}.pem`);
            writeFileSync(certificateFile, cert);
            return { host, certificateFile };
          }),
        timeoutMs: launch.timeoutMs * 3,
        // With a session, WebKit as Safari ships: Intelligent Tracking Prevention on, which blocks
        // third-party cookies (WebKitGTK leaves it off by default and sends them: measured).
        ...(launch.session && { browserArgs: ['--enable-itp'] }),
        ...(launch.programs.webkit?.miniBrowser && {
          programs: { driver: launch.programs.webkit.path, miniBrowser: launch.programs.webkit.miniBrowser },
        }),
      });
      if (launch.session) await setSession(session, launch.session, launch.timeoutMs);
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

/**
 * The certificates of the run's https hosts that an authority the user named vouches for (--ca):
 * WebKit takes a certificate per host, not an authority, so each is fetched, checked by Node
 * against the system's authorities and the user's, and given to WebKit for its host.
 */
async function vouchedCertificates(launch: DriverLaunch): Promise<[string, { cert: string }][]> {
  if (launch.trust.length === 0) return [];
  const hosts = new Map<string, number>();
  for (const url of launch.urls.map((href) => new URL(href)))
    if (url.protocol === 'https:') hosts.set(url.hostname, Number(url.port || 443));
  const ca = [...rootCertificates, ...launch.trust.map((file) => readFileSync(file, 'utf8'))];
  const fetched = await Promise.all(
    [...hosts].map(([host, port]) =>
      certificateOf(host, port, ca, launch.timeoutMs).then((cert) => [host, cert] as const),
    ),
  );
  return fetched
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([host, cert]) => [host, { cert }]);
}

/** The certificate a host shows, as PEM, when Node trusts it; null when it cannot be had or is not trusted. */
function certificateOf(host: string, port: number, ca: string[], timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, servername: host, ca, timeout: timeoutMs }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      const base64 = raw?.toString('base64').replace(/.{64}/g, '$&\n');
      resolve(base64 ? `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n` : null);
    });
    socket.on('timeout', () => socket.destroy());
    socket.on('error', () => resolve(null));
    socket.on('close', () => resolve(null));
  });
}

/** Sets the session's cookies through WebDriver, from a page of the target (Partitioned ones cannot be). */
async function setSession(
  session: WebKitSession,
  { url, cookies }: NonNullable<DriverLaunch['session']>,
  timeoutMs: number,
): Promise<void> {
  await withTimeout(session.browser.url(url), timeoutMs, `loading ${url} to set the session's cookies`);
  const settable = cookies.filter((cookie) => !cookie.partitioned);
  await withTimeout(
    session.browser.setCookies(settable.map(webDriverCookie)),
    timeoutMs,
    "setting the session's cookies",
  );
}

/** A cookie as WebDriver's Add Cookie takes it: a Domain cookie by its domain, a host-only one without. */
function webDriverCookie(cookie: SessionCookieSpec) {
  return {
    name: cookie.name,
    value: cookie.value,
    path: cookie.path,
    ...(!cookie.hostOnly && { domain: `.${cookie.domain}` }),
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    ...(cookie.expires > 0 && { expiry: Math.floor(cookie.expires) }),
    ...(cookie.sameSite && { sameSite: cookie.sameSite }),
  };
}
