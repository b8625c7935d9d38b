import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import type { HostCertificate } from '@origin-lab/engines';
import { loopbackLookup } from '../stacks/loopback.js';
import type { BrowserSettings } from '../stacks/stack.js';

const HANDSHAKE_MS = 10_000;

/**
 * What to tell WebKitGTK to accept on a TLS stack, and why it is not the CA itself.
 *
 * `webkitgtk:browserOptions.certificates` takes, per host, a certificate that WebKit then accepts
 * for that host: the server's own certificate, compared as it is, not a CA whose signature is
 * checked (given Caddy's root for a.localhost and b.localhost, every https page failed its TLS
 * check: measured with WebKitGTK 2.50.6; WPT passes the server's certificate the same way). So
 * the suite checks the CA itself: for each https origin of the stack it fetches the certificate
 * the server presents and verifies it against the stack's CA for that host name (Node's TLS,
 * which rejects anything else and fails the run), and only a certificate that passed is handed to
 * WebKit, for its host. No certificate error is ignored. Files go to dir (the session's own).
 */
export async function verifiedServerCertificates(settings: BrowserSettings, dir: string): Promise<HostCertificate[]> {
  if (settings.caCerts.length === 0) return [];
  const ca = settings.caCerts.map((file) => readFileSync(file, 'utf8'));
  const lookup = loopbackLookup(settings.loopbackNames);
  const https = settings.origins.map((origin) => new URL(origin)).filter((url) => url.protocol === 'https:');
  return Promise.all(
    https.map(async (url, index) => {
      const pem = await serverCertificate(url, ca, lookup);
      const certificateFile = join(dir, `server-${index}.pem`);
      writeFileSync(certificateFile, pem);
      return { host: url.hostname, certificateFile };
    }),
  );
}

/** The certificate an https origin presents, in PEM, once Node has verified it against ca for its host name. */
function serverCertificate(url: URL, ca: string[], lookup: ReturnType<typeof loopbackLookup>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: url.hostname,
      port: Number(url.port || 443),
      servername: url.hostname,
      ca,
      lookup,
      timeout: HANDSHAKE_MS,
    });
    const fail = (err: Error) => {
      socket.destroy();
      reject(new Error(`${url.origin}: its certificate could not be verified against the stack's CA`, { cause: err }));
    };
    socket.once('error', fail);
    socket.once('timeout', () => fail(new Error(`no TLS handshake within ${HANDSHAKE_MS} ms`)));
    socket.once('secureConnect', () => {
      const { raw } = socket.getPeerCertificate();
      socket.end();
      resolve(new X509Certificate(raw).toString());
    });
  });
}
