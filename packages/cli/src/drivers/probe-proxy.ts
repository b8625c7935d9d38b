/**
 * WebKitGTK has no way to serve one document of a given origin itself, so it reaches the probe
 * pages through this forward proxy (its environment's http_proxy and https_proxy: libproxy, the
 * one way this build's MiniBrowser uses an HTTP proxy for https as well; the WebDriver sslProxy
 * capability speaks TLS to the proxy). The proxy serves the probe document for each tried origin
 * (over TLS with a certificate of its own for an https one, which WebKit is told to accept for
 * that host alone) and carries everything else to the real network untouched: a CONNECT tunnel,
 * or a plain HTTP request forwarded as it came.
 */
import { generateKeyPairSync } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { PROBE_PATH, probeDocument } from './probe-page.js';

export interface HostCertificate {
  key: string;
  cert: string;
}

/**
 * A self-signed certificate per host, one key for all: WebKit is given each certificate for its
 * own host (webkitgtk:browserOptions.certificates), which is all it accepts there.
 */
export async function selfSignedCertificates(hosts: readonly string[]): Promise<Map<string, HostCertificate>> {
  // Loaded when a certificate is made, not when the command starts (the same for every engine driver).
  const { default: forge } = await import('node-forge');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(keyPem);
  const forgePublic = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  const certificates = new Map<string, HostCertificate>();
  hosts.forEach((host, index) => {
    const cert = forge.pki.createCertificate();
    cert.publicKey = forgePublic;
    cert.serialNumber = `0${(Date.now() + index).toString(16)}`;
    cert.validity.notBefore = new Date(Date.now() - 3_600_000);
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    const name = [{ name: 'commonName', value: host.slice(0, 64) }];
    cert.setSubject(name);
    cert.setIssuer(name);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: host }] },
    ]);
    cert.sign(forgeKey, forge.md.sha256.create());
    certificates.set(host, { key: keyPem, cert: forge.pki.certificateToPem(cert) });
  });
  return certificates;
}

export class ProbeProxy {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    /** Every connection open through it, ended by stop(). */
    private readonly sockets: Set<Socket>,
  ) {}

  /**
   * Serves the probe document for origins (serialized) and forwards the rest; certificates holds
   * one for each https origin's host. timeoutMs bounds each connection to the real network.
   */
  static async start(
    origins: readonly string[],
    certificates: ReadonlyMap<string, HostCertificate>,
    timeoutMs: number,
    /** The document served at the probe path of each origin (another than the probe's: a proof page). */
    documentFor: (origin: string) => string = () => probeDocument(),
    /** Names carried to an address of the check's choosing (the rebinding name): every path but the probe's. */
    resolve: Readonly<Record<string, string>> = {},
  ): Promise<ProbeProxy> {
    const probeOrigins = new Set(origins);
    const serveProbe = (req: IncomingMessage, res: ServerResponse, origin: string) => {
      const path = new URL(req.url ?? '/', origin).pathname;
      if (path !== PROBE_PATH) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not a probe page');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(documentFor(origin));
    };
    // The probe pages of https origins, behind the TLS this proxy ends itself.
    const inner = createServer((req, res) => serveProbe(req, res, `https://${req.headers.host ?? ''}`));
    const server = createServer((req, res) => {
      let url: URL;
      try {
        url = new URL(req.url ?? '');
      } catch {
        res.writeHead(400).end('a forward proxy takes absolute URLs');
        return;
      }
      const rebound = resolve[url.hostname];
      if (probeOrigins.has(url.origin) && (rebound === undefined || url.pathname === PROBE_PATH))
        return serveProbe(req, res, url.origin);
      forward(req, res, url, timeoutMs, rebound);
    });
    const sockets = new Set<Socket>();
    const track = (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    };
    server.on('connection', track);
    server.on('connect', (req, socket: Socket, head) => {
      const [host, portText] = splitAuthority(req.url ?? '');
      const origin = `https://${host}${portText === '443' ? '' : `:${portText}`}`;
      const certificate = certificates.get(host);
      if (probeOrigins.has(origin) && certificate) {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const tls = new TLSSocket(socket, { isServer: true, key: certificate.key, cert: certificate.cert });
        tls.on('error', () => socket.destroy());
        inner.emit('connection', tls);
        return;
      }
      const upstream = connect({ host, port: Number(portText), timeout: timeoutMs }, () => {
        upstream.setTimeout(0);
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      track(upstream);
      const fail = (status: string) => {
        if (!socket.destroyed) socket.end(`HTTP/1.1 ${status}\r\n\r\n`);
        upstream.destroy();
      };
      upstream.on('timeout', () => fail('504 Gateway Timeout'));
      upstream.on('error', () => fail('502 Bad Gateway'));
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new ProbeProxy(server, (server.address() as { port: number }).port, sockets);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** host and port of a CONNECT target ("host:port", "[v6]:port"). */
function splitAuthority(authority: string): [string, string] {
  const match = /^\[?([^\]]*?)\]?:(\d+)$/.exec(authority);
  return match ? [match[1]!, match[2]!] : [authority, '443'];
}

/**
 * A plain HTTP request carried on as it came (hop-by-hop headers aside), its answer carried back;
 * to address where given (its Host kept: a rebound name).
 */
function forward(req: IncomingMessage, res: ServerResponse, url: URL, timeoutMs: number, address?: string): void {
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  // A rebound name is sent to its address, its Host header as the browser wrote it.
  const options = { method: req.method, headers, timeout: timeoutMs, ...(address && { hostname: address }) };
  const upstream = httpRequest({ ...urlParts(url), ...options }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    answer.pipe(res);
  });
  upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end();
  });
  req.pipe(upstream);
}

/** A URL as http.request's options take it, so that an address may replace its host. */
function urlParts(url: URL) {
  return { protocol: url.protocol, hostname: url.hostname, port: url.port, path: `${url.pathname}${url.search}` };
}
