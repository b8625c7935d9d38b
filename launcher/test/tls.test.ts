import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { EchoReflection } from '@origin-lab/contract';
import { serve, stopChild } from '@origin-lab/server-kit';
import { pollUntil, spawnWatched } from '@origin-lab/test-kit';
import { findCaddy, http2SchedulerWarning, repoCaddyfile } from '../src/caddy.js';
import { journalOnceRecorded } from './journal.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(async () => {
  // SIGTERM, and SIGKILL if one is still there after the grace time: the hook cannot hang.
  for (const child of children.splice(0)) await stopChild(child);
});

interface TlsStart {
  child: ChildProcess;
  origins: string[];
  caCert: string;
  output: () => string;
}

/** `npm start -- --tls` on free ports; resolves with what it printed. */
async function startTls(): Promise<TlsStart> {
  const launched = spawnWatched(process.execPath, ['launcher/dist/start.js', '--tls'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HTTPS_PORT: '0', HTTP_PORT: '0' },
  });
  children.push(launched.child);
  await launched.waitFor(/Ctrl-C stops/, 25_000, 'npm start -- --tls printing its URLs');
  const output = launched.output();
  return {
    child: launched.child,
    origins: [...output.matchAll(/^ {2}(https:\/\/[a-z.]+:\d+)\/$/gm)].map((match) => match[1]!),
    caCert: /^ {2}(\/\S+root\.crt)$/m.exec(output)![1]!,
    output: launched.output,
  };
}

/** How long a request through the front may stay silent: above Caddy's own 5 s of trying the api (lb_try_duration). */
const REQUEST_MS = 10_000;

/**
 * One test's bound: the start's own (25 s, startTls) and a few bounded requests. vitest's default
 * (20 s) is below the start's bound, so a slow start failed as a bare timeout, naming no step.
 */
const TLS_TEST_MS = 60_000;

/** One GET on session, read to its end; a request silent for REQUEST_MS fails, naming its path. */
function h2Get(
  session: http2.ClientHttp2Session,
  path: string,
  headers: http2.OutgoingHttpHeaders = {},
): Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = session.request({ ':path': path, ...headers });
    request.setTimeout(REQUEST_MS, () => {
      request.close(http2.constants.NGHTTP2_CANCEL);
      reject(new Error(`GET ${path} through Caddy: nothing received for ${REQUEST_MS} ms`));
    });
    let responseHeaders: http2.IncomingHttpHeaders = {};
    let body = '';
    request.setEncoding('utf8');
    request.on('response', (received) => (responseHeaders = received));
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve({ status: Number(responseHeaders[':status']), headers: responseHeaders, body }));
    request.on('error', reject);
    request.end();
  });
}

/** An HTTP/2 session to https://<name>:port, connected to 127.0.0.1 and trusting only the CA. */
function h2Session(origin: string, caCert: string): http2.ClientHttp2Session {
  const url = new URL(origin);
  return http2.connect(origin, { host: '127.0.0.1', servername: url.hostname, ca: readFileSync(caCert) });
}

// Caddy is required on CI; elsewhere these are skipped with the reason printed by vitest.
const caddyMissing = !findCaddy() && !process.env.CI;

describe.skipIf(caddyMissing)('npm start -- --tls (Caddy in front, TLS, HTTP/2)', { timeout: TLS_TEST_MS }, () => {
  it('prints two https origins and the root certificate; both serve pages and the api over HTTP/2 with a certificate from that CA', async () => {
    const { origins, caCert, output } = await startTls();
    // Go's own releases: net/http's HTTP/2 schedules round-robin from Go 1.23 (golang/go#67706).
    const built = /^go\s+go1\.(\d+)/m.exec(execFileSync(findCaddy()!, ['build-info'], { encoding: 'utf8' }));
    expect(built, 'caddy build-info names its Go').not.toBeNull();
    expect(output().includes('Warning: this Caddy was built with go1.')).toBe(Number(built![1]) < 23);
    expect(origins).toHaveLength(2);
    expect(origins[0]).toMatch(/^https:\/\/a\.localhost:\d+$/);
    expect(origins[1]).toMatch(/^https:\/\/b\.localhost:\d+$/);
    expect(readFileSync(caCert, 'utf8')).toContain('BEGIN CERTIFICATE');
    for (const [self, other] of [origins, [...origins].reverse()]) {
      const session = h2Session(self!, caCert);
      try {
        await new Promise<void>((resolve, reject) => session.once('connect', () => resolve()).once('error', reject));
        expect(session.alpnProtocol).toBe('h2');
        expect((await h2Get(session, '/')).status).toBe(200);
        const api = await h2Get(session, '/api/posts', { origin: other });
        expect(api.status).toBe(200);
        // Each name is on the other's allowlist, at the ports this run picked.
        expect(api.headers['access-control-allow-origin']).toBe(other);
        // No HTTP/3 is advertised.
        expect(api.headers['alt-svc']).toBeUndefined();
      } finally {
        session.close();
      }
    }
  });

  it('Ctrl-C while Caddy gets ready stops it and deletes its throwaway folder, which holds its CA key', async () => {
    const launched = spawnWatched(process.execPath, ['launcher/dist/start.js', '--tls'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: '0', HTTPS_PORT: '0', HTTP_PORT: '0' },
    });
    children.push(launched.child);
    // Caddy as soon as it runs: the launcher's child given a throwaway folder as HOME (not
    // `caddy build-info`, a child of its own that comes and goes).
    const caddyOf = (id: string) => {
      try {
        const home = /(?:^|\0)HOME=([^\0]+)/.exec(readFileSync(`/proc/${id}/environ`, 'utf8'))?.[1];
        return home?.includes('origin-lab-caddy-') ? { id, home } : undefined;
      } catch {
        return undefined; // gone meanwhile
      }
    };
    const caddy = await pollUntil(
      'Caddy to run',
      () => {
        const pid = launched.child.pid!;
        const ids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
        return ids.map(caddyOf).find(Boolean);
      },
      { timeoutMs: 20_000, intervalMs: 10 },
    );
    launched.child.kill('SIGINT');
    expect(await launched.exitWithin(15_000)).toBe(0);
    expect(existsSync(caddy!.home), caddy!.home).toBe(false);
    expect(existsSync(`/proc/${caddy!.id}`)).toBe(false);
    expect(launched.output()).not.toMatch(/\bat .*\.js:\d+/);
  });

  it("gives the api the client's Accept-Encoding untouched and the HTTP version the browser spoke, which the journal records", async () => {
    const { origins, caCert } = await startTls();
    const session = h2Session(origins[0]!, caCert);
    const visitor = 'tlsVersionTest_00000A';
    const json = async (path: string, headers: http2.OutgoingHttpHeaders = {}): Promise<unknown> =>
      JSON.parse((await h2Get(session, path, headers)).body);
    try {
      // Asked without Accept-Encoding: Go's transport would add gzip, and the echo would show it.
      const seen = (await json(`/api/echo?visitor=${visitor}`)) as EchoReflection;
      expect(seen.headers['accept-encoding']).toBeUndefined();
      const entries = await journalOnceRecorded(json, visitor);
      expect(entries.map(({ entry }) => [entry.path, entry.httpVersion])).toEqual([['/api/echo', 'HTTP/2.0']]);
    } finally {
      session.close();
    }
  });

  it('passes server-sent events through unbuffered and uncompressed, and a client that leaves reaches the api', async () => {
    const { origins, caCert, output } = await startTls();
    const session = h2Session(origins[0]!, caCert);
    try {
      const request = session.request({ ':path': '/api/stream?count=30', 'accept-encoding': 'gzip, br' });
      let headers: http2.IncomingHttpHeaders | undefined;
      let body = '';
      let ended = false;
      request.on('response', (responseHeaders) => (headers = responseHeaders));
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => (ended = true));
      request.end();
      // The first tick arrives while the stream still has 29 to go: nothing holds it back.
      await pollUntil('the first tick through Caddy', () => body.includes('event: tick\ndata: {"n":1,"of":30}\n\n'), {
        timeoutMs: 10_000,
        intervalMs: 50,
      });
      expect(ended).toBe(false);
      expect(headers?.['content-type']).toBe('text/event-stream');
      expect(headers?.['content-encoding']).toBeUndefined();
      // The client leaves: Caddy closes its side to the api, whose request log records the stream
      // as not completed (the log line is written when the response closes).
      request.close(http2.constants.NGHTTP2_CANCEL);
      await pollUntil(
        'the api to see the client leave',
        () =>
          output()
            .split('\n')
            .some((line) => line.includes('"url":"/api/stream?count=30"') && line.includes('"completed":false')),
        { timeoutMs: 10_000, intervalMs: 50 },
      );
    } finally {
      session.close();
    }
  });
});

describe("a Caddy whose HTTP/2 can leave answers unsent (Go's priority tree, before Go 1.23)", () => {
  it("is named with its Go release and the Go issue; Debian 12's caddy 2.6.2 is one", () => {
    const warning = http2SchedulerWarning('go\tgo1.19.8\npath\tgithub.com/caddyserver/caddy/v2/cmd/caddy\n');
    expect(warning).toContain('go1.19.8');
    expect(warning).toContain('golang/go#66514');
    expect(http2SchedulerWarning('go\tgo1.22.12\n')).toContain('go1.22.12');
  });

  it('is not warned about from Go 1.23 on, nor when build-info names no Go', () => {
    expect(http2SchedulerWarning('go\tgo1.23.0\n')).toBeNull();
    expect(http2SchedulerWarning('go\tgo1.25.1 X:nosynchashtriggeredtimer\n')).toBeNull();
    expect(http2SchedulerWarning('v2.10.2 h1:abc=\n')).toBeNull();
  });
});

describe('request bodies for the api, capped by the front', () => {
  it.skipIf(!findCaddy())(
    "this machine's Caddy adapts the Caddyfile: the api's routes take bodies up to REQUEST_BODY_MAX, the pages' are left alone",
    () => {
      const caddy = findCaddy()!;
      const adapt = (env: Record<string, string>) =>
        JSON.parse(
          execFileSync(caddy, ['adapt', '--config', repoCaddyfile, '--adapter', 'caddyfile'], {
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'ignore'],
          }).toString(),
        ) as unknown;
      // Every handler of the adapted JSON, in order: a route's request_body comes before its reverse_proxy.
      const handlers = (node: unknown): Record<string, unknown>[] =>
        Array.isArray(node)
          ? node.flatMap(handlers)
          : node && typeof node === 'object'
            ? [
                ...(typeof (node as Record<string, unknown>).handler === 'string'
                  ? [node as Record<string, unknown>]
                  : []),
                ...Object.values(node).flatMap(handlers),
              ]
            : [];
      // Each proxy, the api's (with a health check) or the pages', with the cap just before it.
      const proxies = (env: Record<string, string>) =>
        handlers(adapt(env)).flatMap((handler, index, all) =>
          handler.handler === 'reverse_proxy'
            ? [
                {
                  api: 'health_checks' in handler,
                  cap: all[index - 1]?.handler === 'request_body' ? all[index - 1]!.max_size : undefined,
                },
              ]
            : [],
        );
      // Two sites (https and http), each with the api's proxy and the pages'.
      const both = (bytes: number) => [
        { api: true, cap: bytes },
        { api: false, cap: undefined },
      ];
      expect(proxies({})).toEqual([...both(104_857_600), ...both(104_857_600)]);
      expect(proxies({ REQUEST_BODY_MAX: '64KiB' })).toEqual([...both(65_536), ...both(65_536)]);
    },
  );
});

describe('Caddyfile and servers agree on idle keep-alive', () => {
  it("Caddy drops idle upstream connections before the services' keep-alive timeout would", async () => {
    const caddyfile = readFileSync(repoCaddyfile, 'utf8');
    const idle = [...caddyfile.matchAll(/keepalive \{\$UPSTREAM_IDLE_TIMEOUT:(\d+)s\}/g)].map(
      (match) => Number(match[1]) * 1_000,
    );
    expect(idle.length).toBeGreaterThanOrEqual(2);
    const running = await serve((_req, res) => res.end(), { port: 0, host: '127.0.0.1' });
    try {
      for (const ms of idle) expect(ms).toBeLessThan(running.server.keepAliveTimeout);
    } finally {
      await running.stop();
    }
  });
});
