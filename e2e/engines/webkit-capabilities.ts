import { miniBrowser } from '../browsers.js';
import type { HostCertificate } from './pinned-certificates.js';

/**
 * The capabilities of a WebKitGTK session (MiniBrowser through WebKitWebDriver) on a stack:
 *
 * - On a TLS stack, `webkitgtk:browserOptions.certificates` names, per host of the stack, the
 *   certificate its server presents once the stack's CA has vouched for it
 *   (pinned-certificates.ts: that capability takes a server's certificate, not a CA). No
 *   certificate error is ignored.
 * - A LAN stack's names, which no DNS here answers, reach 127.0.0.1 through a forward proxy
 *   (loopback-proxy.ts) named by the W3C `proxy` capability: WebKitGTK has no switch to resolve
 *   a name itself, as Chromium's --host-resolver-rules and Firefox's network.dns.localDomains do.
 *   It resolves *.localhost itself (measured), so the other stacks need no proxy.
 *
 * MiniBrowser runs `--full-screen`, which hides its toolbar: the page gets the whole window, so a
 * window set to 390 x 844 is a phone's viewport (with the toolbar no window was narrower than
 * 447 px: measured).
 *
 * WebKit's bubblewrap sandbox stays on: the browsers run on the host here, never in a container.
 * Inside Docker the sandbox cannot start under the default seccomp profile and would have to be
 * turned off (PLATFORM.md); nothing here does that.
 */
export function webkitCapabilities(certificates: HostCertificate[], proxyPort?: number): WebdriverIO.Capabilities {
  return {
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': {
      binary: miniBrowser,
      args: ['--automation', '--full-screen'],
      ...(certificates.length > 0 ? { certificates } : {}),
    },
    ...(proxyPort !== undefined
      ? { proxy: { proxyType: 'manual', httpProxy: `127.0.0.1:${proxyPort}`, noProxy: [] } }
      : {}),
    'wdio:enforceWebDriverClassic': true,
  } as WebdriverIO.Capabilities;
}
