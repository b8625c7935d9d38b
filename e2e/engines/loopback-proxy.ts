import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackLookup } from '../stacks/loopback.js';

/** Headers that belong to one hop (RFC 9110 7.6.1), not to the request or answer the proxy passes on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** headers without the hop's own; a WebSocket handshake keeps its Upgrade and Connection, which are its request. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const handshake = headers.upgrade !== undefined;
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !HOP_BY_HOP.has(name) || (handshake && (name === 'upgrade' || name === 'connection')),
    ),
  );
}

/** The URL a proxy request names (absolute form): http:, or ws: for a WebSocket handshake; else undefined. */
function targetOf(url: string | undefined): URL | undefined {
  try {
    const target = new URL(url ?? '');
    return target.protocol === 'http:' || target.protocol === 'ws:' ? target : undefined;
  } catch {
    return undefined;
  }
}

export interface LoopbackProxy {
  port: number;
  stop(): Promise<void>;
}

/**
 * A plain-HTTP forward proxy on 127.0.0.1 for an engine that cannot be told to resolve names
 * itself (WebKitGTK over WebDriver, through the W3C `proxy` capability): requests for
 * loopbackNames (and *.localhost) go to 127.0.0.1, everything else where its URL names, as a
 * LAN's DNS would send them. The request goes on as it came (Host included, minus the hop's own
 * headers) and the answer streams back as it arrives (server-sent events included); when the
 * engine drops a request, the proxy drops it upstream too, so the server sees the close. WebKit
 * sends a ws: handshake as `GET ws://...` with Upgrade (measured): it goes on like any request,
 * its Upgrade kept; an answer other than 101 comes back like any answer (WebKit then reuses the
 * connection for its next request: measured). The service has no WebSocket route (SPEC.md), so
 * no 101 is relayed: the proxy would answer 502. No CONNECT: the LAN stack has no TLS.
 *
 * Written on node:http rather than taken from npm: `proxy` cannot send a name to another address,
 * `http-proxy` is unmaintained since 2020, and this is as short as wiring either.
 */
export async function startLoopbackProxy(loopbackNames: readonly string[]): Promise<LoopbackProxy> {
  const agent = new Agent({ keepAlive: true });
  const lookup = loopbackLookup(loopbackNames);
  const server = createServer((incoming, answer) => {
    const target = targetOf(incoming.url);
    if (!target) {
      answer.writeHead(400, { 'content-type': 'text/plain' }).end('an absolute http:// URL, please: this is a proxy');
      return;
    }
    const outgoing = request({
      agent,
      lookup,
      host: target.hostname,
      port: target.port || 80,
      method: incoming.method,
      path: `${target.pathname}${target.search}`,
      headers: endToEnd(incoming.headers),
    });
    outgoing.on('response', (upstream) => {
      answer.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, endToEnd(upstream.headers));
      answer.flushHeaders();
      upstream.pipe(answer);
    });
    outgoing.on('error', (err) => {
      if (answer.headersSent) answer.destroy(err);
      else answer.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${err.message}`);
    });
    // The engine went away (a closed EventSource, an aborted fetch): so does the upstream request.
    answer.on('close', () => {
      if (!answer.writableFinished) outgoing.destroy();
    });
    incoming.pipe(outgoing);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
