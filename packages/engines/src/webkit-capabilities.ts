import type {} from 'webdriverio';
import { miniBrowser } from './browsers.js';

/** One entry of WebKitGTK's `webkitgtk:browserOptions.certificates`: a certificate it accepts for a host. */
export interface HostCertificate {
  host: string;
  certificateFile: string;
}

/**
 * The capabilities of a WebKitGTK session (MiniBrowser through WebKitWebDriver):
 *
 * - `webkitgtk:browserOptions.certificates` names, per host, the one certificate WebKit is to
 *   accept for it: a server's own certificate, not a CA (the e2e suite passes a TLS stack's
 *   certificates once the stack's CA has vouched for them, e2e/engines/pinned-certificates.ts;
 *   `check` passes its probe pages' own). No other certificate error is ignored.
 * - A forward proxy, when given, is named by the W3C `proxy` capability and carries every
 *   request, loopback included: the e2e suite's LAN names reach 127.0.0.1 through one
 *   (e2e/engines/loopback-proxy.ts; WebKitGTK has no switch to resolve a name itself, as
 *   Chromium's --host-resolver-rules and Firefox's network.dns.localDomains do; it resolves
 *   *.localhost itself, measured), and `check` serves its probe pages through one.
 *
 * MiniBrowser runs `--full-screen`, which hides its toolbar: the page gets the whole window, so a
 * window set to 390 x 844 is a phone's viewport (with the toolbar no window was narrower than
 * 447 px: measured).
 *
 * WebKit's bubblewrap sandbox stays on: the browsers run on the host here, never in a container.
 * Inside Docker the sandbox cannot start under the default seccomp profile and would have to be
 * turned off (PLATFORM.md); nothing here does that.
 */
export function webkitCapabilities(
  certificates: HostCertificate[],
  proxyPort?: number,
  binary: string = miniBrowser,
  /** More of MiniBrowser's switches (e.g. --enable-itp). */
  extraArgs: readonly string[] = [],
): WebdriverIO.Capabilities {
  return {
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': {
      binary,
      args: ['--automation', '--full-screen', ...extraArgs],
      ...(certificates.length > 0 ? { certificates } : {}),
    },
    ...(proxyPort !== undefined
      ? {
          proxy: {
            proxyType: 'manual',
            httpProxy: `127.0.0.1:${proxyPort}`,
            sslProxy: `127.0.0.1:${proxyPort}`,
            noProxy: [],
          },
        }
      : {}),
    'wdio:enforceWebDriverClassic': true,
  } as WebdriverIO.Capabilities;
}
