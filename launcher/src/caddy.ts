import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from '@origin-lab/server-kit';
import { isLocalName } from './site-names.js';

/**
 * The Go release from which a Caddy's HTTP/2 no longer schedules its answers by RFC 7540's
 * dependency tree: net/http switched to round-robin in Go 1.23 (golang/go#67706). The tree it
 * used loses streams when one with several dependants closes (golang/go#66514): on a busy
 * connection, such as a student's browser with the lab's pages open, Chromium's answers stay
 * unsent until the connection closes. Debian 12's caddy 2.6.2 is built with Go 1.19.
 */
const ROUND_ROBIN_GO: readonly [number, number] = [1, 23];

/**
 * What `caddy build-info` says of the Go that built it, as a warning when that Go's HTTP/2 can
 * leave answers unsent (ROUND_ROBIN_GO); null when it cannot, or when the text names no Go release.
 */
export function http2SchedulerWarning(buildInfo: string): string | null {
  const found = /^go\s+go(\d+)\.(\d+)(\S*)/m.exec(buildInfo);
  if (!found) return null;
  const [major, minor] = [Number(found[1]), Number(found[2])];
  const [wantMajor, wantMinor] = ROUND_ROBIN_GO;
  if (major > wantMajor || (major === wantMajor && minor >= wantMinor)) return null;
  return (
    `this Caddy was built with go${major}.${minor}${found[3]}: its HTTP/2 can leave a busy connection's answers ` +
    `unsent (golang/go#66514), and a page then waits until the connection closes.\n` +
    `  Caddy built with Go ${wantMajor}.${wantMinor} or newer does not (the official caddy:2 image, or caddyserver.com); ` +
    `nor do the http:// addresses.`
  );
}

/** The HTTP/2 warning for this caddy executable (see http2SchedulerWarning), or null; asking it is bounded by timeoutMs. */
export function caddyHttp2Warning(executable: string, timeoutMs = 5_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(executable, ['build-info'], { timeout: timeoutMs }, (err, stdout) =>
      resolve(err ? null : http2SchedulerWarning(stdout)),
    );
  });
}

/** The repository's Caddyfile: the same file the docker compose set mounts. */
export const repoCaddyfile = fileURLToPath(new URL('../../Caddyfile', import.meta.url));

export interface CaddyOptions {
  /** The two host names; both serve the same content. */
  sites: [string, string];
  /** The third name (the lab's redirect to a third origin); the Caddyfile's c.localhost when left out. */
  third?: string;
  httpsPort: number;
  /** Plain-HTTP port for the same two names (HTTP/1.1 only). */
  httpPort: number;
  /** host:port of the api and of the pages; the same address for the embedded default. */
  apiUpstream: string;
  /**
   * The api's replicas found by a name instead (the Caddyfile's `dns` mode, docker compose's):
   * every address the name resolves to, on this port. apiUpstream is then unused.
   */
  apiByName?: { name: string; port: number };
  pagesUpstream: string;
  /** The caddy program; CADDY_PATH or `caddy` on PATH by default. */
  executable?: string;
  caddyfile?: string;
  /** How long to wait for Caddy to listen and serve its certificates. */
  readyTimeoutMs?: number;
  /**
   * Called as soon as Caddy runs, with what stops it and deletes its throwaway folder (its CA's
   * key is in it): a signal while Caddy gets ready stops it too.
   */
  onRunning?: (stop: () => Promise<void>) => void;
  /**
   * Caddy's data folder (its local CA and certificates). Given, it is kept, so a CA trusted once
   * stays trusted; left out, a throwaway folder is used and deleted on stop.
   */
  dataDir?: string;
  /** PATH for Caddy's own process. */
  searchPath?: string;
  /** Caddy's idle time for pooled upstream connections (the Caddyfile's default when left out). */
  upstreamIdleTimeout?: string;
  /** How many idle upstream connections Caddy keeps per upstream (the Caddyfile's default when left out). */
  upstreamIdleConns?: string;
  /** For public names: the ACME account's contact address, and another ACME directory than Let's Encrypt's. */
  acmeEmail?: string;
  acmeCa?: string;
  /** A PEM file of roots Caddy trusts when it talks to the ACME directory (SSL_CERT_FILE), e.g. a school's own CA. */
  trustedRoots?: string;
  /** Told, as they happen, how getting certificates for public names goes (Caddy's own log, shortened). */
  report?: (line: string) => void;
  /** A file that gets Caddy's whole log (JSON lines), complete once stop() resolves. */
  logFile?: string;
}

export interface RunningCaddy {
  /** https://<site>[:port] for each site, in the order given. */
  origins: [string, string];
  /** http://<site>[:port] for each site (HTTP/1.1). */
  plainOrigins: [string, string];
  /** Caddy's local root certificate (PEM); in a throwaway data folder it is new each run and deleted by stop(). */
  caCert: string;
  /** The names whose certificates come from ACME rather than the local CA, in the order given. */
  publicNames: string[];
  /** Caddy's process id (for measuring it). */
  pid: number;
  /** Why this Caddy's HTTP/2 can leave answers unsent (http2SchedulerWarning), or null. */
  http2Warning: string | null;
  stop(): Promise<void>;
}

export class CaddyError extends Error {}

/** The executable to run, or undefined when none is installed. */
export function findCaddy(env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.CADDY_PATH) return existsSync(env.CADDY_PATH) ? env.CADDY_PATH : undefined;
  for (const dir of (env.PATH ?? '').split(':').filter(Boolean)) {
    const candidate = join(dir, 'caddy');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function originOf(scheme: 'https' | 'http', host: string, port: number): string {
  const standard = scheme === 'https' ? 443 : 80;
  return port === standard ? `${scheme}://${host}` : `${scheme}://${host}:${port}`;
}

export interface ReplicaFront extends RunningCaddy {
  httpsPort: number;
  httpPort: number;
}

/**
 * The repository's Caddyfile for a.localhost and b.localhost in front of api replicas at these
 * host:port addresses (its `list` mode: every address, health-checked), on free ports unless
 * given. The pages' routes go to the first replica: a benchmark or a replica test asks for no page.
 */
export async function startReplicaFront(
  apiAddresses: readonly string[],
  options: Partial<Pick<CaddyOptions, 'httpsPort' | 'httpPort' | 'searchPath'>> = {},
): Promise<ReplicaFront> {
  const httpsPort = options.httpsPort ?? (await freePort());
  const httpPort = options.httpPort ?? (await freePort());
  const caddy = await startCaddy({
    sites: ['a.localhost', 'b.localhost'],
    httpsPort,
    httpPort,
    apiUpstream: apiAddresses.join(' '),
    pagesUpstream: apiAddresses[0]!,
    searchPath: options.searchPath,
  });
  return { ...caddy, httpsPort, httpPort };
}

/**
 * Runs the repository's Caddyfile with Caddy from this machine, with a throwaway HOME and data
 * directory (so a fresh local CA, and nothing written to the user's trust stores), and resolves
 * once both names are served (waitUntilServing says how each kind of name is checked).
 */
export async function startCaddy(options: CaddyOptions): Promise<RunningCaddy> {
  const executable = options.executable ?? findCaddy();
  if (!executable) throw new CaddyError('caddy is not installed (apt-get install caddy), or set CADDY_PATH');
  const home = mkdtempSync(join(tmpdir(), 'origin-lab-caddy-'));
  const dataDir = options.dataDir ?? join(home, 'data');
  const caCert = join(dataDir, 'caddy', 'pki', 'authorities', 'local', 'root.crt');
  const child = spawn(executable, ['run', '--config', options.caddyfile ?? repoCaddyfile, '--adapter', 'caddyfile'], {
    env: {
      PATH: options.searchPath,
      HOME: home,
      XDG_DATA_HOME: dataDir,
      XDG_CONFIG_HOME: join(home, 'config'),
      SITE_A: options.sites[0],
      SITE_B: options.sites[1],
      ...(options.third ? { SITE_C: options.third } : {}),
      HTTPS_PORT: String(options.httpsPort),
      HTTP_PORT: String(options.httpPort),
      API_UPSTREAM: options.apiUpstream,
      ...(options.apiByName
        ? { API_DISCOVERY: 'dns', API_NAME: options.apiByName.name, API_PORT: String(options.apiByName.port) }
        : {}),
      PAGES_UPSTREAM: options.pagesUpstream,
      ...(options.upstreamIdleTimeout ? { UPSTREAM_IDLE_TIMEOUT: options.upstreamIdleTimeout } : {}),
      ...(options.upstreamIdleConns ? { UPSTREAM_IDLE_CONNS: options.upstreamIdleConns } : {}),
      ...(options.acmeEmail ? { ACME_EMAIL: options.acmeEmail } : {}),
      ...(options.acmeCa ? { ACME_CA: options.acmeCa } : {}),
      ...(options.trustedRoots ? { SSL_CERT_FILE: options.trustedRoots } : {}),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const report = options.report;
  const publicNames = options.sites.filter((site) => !isLocalName(site));
  const logFile = options.logFile ? createWriteStream(options.logFile) : undefined;
  logFile?.on('error', () => undefined);
  child.stderr!.on('data', (chunk: Buffer) => {
    // Keep the tail only: enough to explain a failure.
    log = (log + chunk.toString()).slice(-20_000);
    logFile?.write(chunk);
  });
  if (report)
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const news = certificateNews(line, publicNames);
      if (news) report(news);
    });
  const stop = async () => {
    await stopChild(child, 5_000);
    rmSync(home, { recursive: true, force: true });
    if (logFile && !logFile.writableEnded) await new Promise<void>((resolve) => logFile.end(resolve));
  };
  options.onRunning?.(stop);
  const http2Warning = caddyHttp2Warning(executable);
  try {
    await waitUntilServing(child, options, caCert, options.readyTimeoutMs ?? 20_000, () => log);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    http2Warning: await http2Warning,
    origins: [
      originOf('https', options.sites[0], options.httpsPort),
      originOf('https', options.sites[1], options.httpsPort),
    ],
    plainOrigins: [
      originOf('http', options.sites[0], options.httpPort),
      originOf('http', options.sites[1], options.httpPort),
    ],
    caCert,
    publicNames,
    pid: child.pid ?? -1,
    stop,
  };
}

/**
 * Resolves once Caddy serves: every local name over TLS with a certificate from its CA, and every
 * public name over plain HTTP (its certificate comes from ACME in its own time, which may be
 * minutes or never; start() reports it as it goes rather than wait for it).
 */
async function waitUntilServing(
  child: ChildProcess,
  options: CaddyOptions,
  caCert: string,
  timeoutMs: number,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  const check = (site: string): Promise<number | string> =>
    isLocalName(site)
      ? existsSync(caCert)
        ? httpsAnswer(site, options.httpsPort, '/', caCert)
        : Promise.resolve(`${site}: no local CA yet`)
      : httpAnswer(site, options.httpPort, '/');
  let last = 'not started';
  while (Date.now() < deadline) {
    if (exited) throw new CaddyError(`caddy exited before serving:\n${tail(log())}`);
    // Any status will do: Caddy serves the name.
    const results = await Promise.all(options.sites.map(check));
    const failure = results.find((result) => typeof result === 'string');
    if (failure === undefined) return;
    last = String(failure);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new CaddyError(`caddy did not serve both names within ${timeoutMs} ms (last: ${last}):\n${tail(log())}`);
}

/** What a line of Caddy's JSON log says about a certificate for one of the public names, or undefined. */
export function certificateNews(line: string, publicNames: readonly string[]): string | undefined {
  let entry: { level?: string; logger?: string; msg?: string; identifier?: string; error?: string };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return undefined;
  }
  if (!entry.logger?.startsWith('tls')) return undefined;
  if (entry.identifier && !publicNames.includes(entry.identifier)) return undefined;
  const about = entry.identifier ? `${entry.identifier}: ` : '';
  if (entry.msg === 'certificate obtained successfully') return `${about}certificate obtained`;
  if (entry.msg === 'obtaining certificate') return `${about}obtaining a certificate`;
  if (entry.level === 'error') return `${about}${entry.msg ?? 'error'}${entry.error ? `: ${entry.error}` : ''}`;
  return undefined;
}

/**
 * GET https://site:port/path, connecting to 127.0.0.1 (glibc does not resolve *.localhost) and
 * trusting only the given CA: the status, or the reason there was none.
 */
export function httpsAnswer(site: string, port: number, path: string, caCert: string): Promise<number | string> {
  return answerOn('https', site, port, path, caCert);
}

/** GET http://site:port/path on 127.0.0.1: the status, or the reason there was none. */
function httpAnswer(site: string, port: number, path: string): Promise<number | string> {
  return answerOn('http', site, port, path);
}

function answerOn(
  scheme: 'http' | 'https',
  site: string,
  port: number,
  path: string,
  caCert?: string,
): Promise<number | string> {
  const options = {
    host: '127.0.0.1',
    port,
    path,
    headers: { host: originOf(scheme, site, port).slice(`${scheme}://`.length) },
    timeout: 2_000,
    agent: false,
  };
  return new Promise((resolve) => {
    const onResponse = (response: http.IncomingMessage) => {
      response.resume();
      resolve(response.statusCode ?? 'no status');
    };
    const request =
      scheme === 'https'
        ? https.get({ ...options, servername: site, ca: caCert ? readFileSync(caCert) : undefined }, onResponse)
        : http.get(options, onResponse);
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (err) => resolve(`${site}: ${err.message}`));
  });
}

function tail(text: string): string {
  return text.split('\n').slice(-15).join('\n');
}
