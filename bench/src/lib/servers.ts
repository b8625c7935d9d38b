import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, startNodeServer, type Child } from './processes.js';
import { freePort } from '@origin-lab/server-kit';
import { pollUntil, type Listening } from '@origin-lab/test-kit';

/** The origin every benchmark request claims; it is on the api's allowlist, so CORS headers are computed and sent. */
export const BENCH_ORIGIN = 'https://a.localhost';
export const BENCH_UPSTREAM_KEY = 'bench-upstream-key-0123456789';

export interface Server extends Listening {
  child: Child;
}

/** host:port of each server, as Caddy's API_UPSTREAM lists them. */
export function addressesOf(servers: readonly Server[]): string[] {
  return servers.map((server) => `127.0.0.1:${server.port}`);
}

async function startServer(script: string, env: Record<string, string>, what: string): Promise<Server> {
  const { child, port } = await startNodeServer(script, env, what);
  return { child, port, url: `http://127.0.0.1:${port}` };
}

const apiSettings = {
  LOG_REQUESTS: 'false',
  ALLOWED_ORIGINS: `${BENCH_ORIGIN},https://b.localhost`,
  UPSTREAM_API_KEY: BENCH_UPSTREAM_KEY,
};

/** The api as production runs it (node services/api/dist/main.js), request log off unless asked. */
export function startApi(env: Record<string, string> = {}): Promise<Server> {
  return startServer('services/api/dist/main.js', { ...apiSettings, ...env }, 'the api');
}

/** count api processes sharing the state in one Redis, named replica-1, replica-2, ...; started together. */
export function startApiReplicas(count: number, redisUrl: string, env: Record<string, string> = {}): Promise<Server[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      startApi({ ...env, REDIS_URL: redisUrl, REPLICA_NAME: `replica-${i + 1}` }),
    ),
  );
}

/**
 * The api with its request log on and stdout redirected to a file, as `npm start > api.log` or a
 * container's log driver would take it: the figure is the api's cost of logging, not the cost of
 * this benchmark reading 25,000 lines a second from a pipe on the same two cores. env: more
 * settings, such as LOG_REQUEST_LINES_PER_SECOND.
 */
export function startApiLoggingToFile(env: Record<string, string> = {}): Promise<Server> {
  return startLoggingToFile('services/api/dist/main.js', { ...apiSettings, LOG_REQUESTS: 'true', ...env }, 'the api');
}

/** The Koa + @koa/router echo logging each request with the api's logger, stdout to a file. */
export function startKoaRouterEchoLoggingToFile(): Promise<Server> {
  return startLoggingToFile('bench/dist/servers/koa-router-echo.js', { LOG_REQUESTS: 'true' }, 'the Koa echo');
}

async function startLoggingToFile(script: string, env: Record<string, string>, what: string): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-bench-log-'));
  const logFile = join(dir, 'api.log');
  const fd = openSync(logFile, 'w');
  const child = startChild(process.execPath, [script], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', fd, 'pipe'],
  });
  closeSync(fd);
  const readLog = () => readFileSync(logFile, 'utf8');
  const port = await pollUntil(
    `${what} logging to a file to print its port`,
    () =>
      Number(
        readLog()
          .match(/"port":(\d+)|listening on (\d+)/)
          ?.slice(1)
          .find(Boolean),
      ),
    { timeoutMs: 15_000 },
  );
  const stop = child.stop;
  child.stop = async (graceMs) => {
    await stop(graceMs);
    rmSync(dir, { recursive: true, force: true });
  };
  return { child, port, url: `http://127.0.0.1:${port}` };
}

export const startBareEcho = () => startServer('bench/dist/servers/bare-echo.js', {}, 'the bare node:http echo');
export const startKoaMinimalEcho = () =>
  startServer('bench/dist/servers/koa-minimal-echo.js', {}, 'the minimal Koa echo');
export const startKoaRouterEcho = () =>
  startServer('bench/dist/servers/koa-router-echo.js', {}, 'the Koa + @koa/router echo');
export const startUpstreamMock = () =>
  startServer('services/upstream-mock/dist/main.js', { UPSTREAM_API_KEY: BENCH_UPSTREAM_KEY }, 'the upstream-mock');

export interface Caddy {
  child: Child;
  /** https://localhost:PORT, HTTP/1.1 and HTTP/2 over TLS from Caddy's internal CA. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Caddy (Debian package) in front of the api, the PLATFORM.md recipe: internal TLS, h1 and h2
 * only, no admin endpoint, throwaway HOME and data dirs, and a reverse proxy to the api.
 */
export async function startCaddy(apiPort: number): Promise<Caddy> {
  const home = mkdtempSync(join(tmpdir(), 'origin-lab-caddy-'));
  const port = await freePort();
  const caddyfile = join(home, 'Caddyfile');
  writeFileSync(
    caddyfile,
    [
      '{',
      '  admin off',
      '  auto_https disable_redirects',
      '  skip_install_trust',
      '  servers {',
      '    protocols h1 h2',
      '  }',
      '}',
      `https://localhost:${port} {`,
      '  tls internal',
      `  reverse_proxy 127.0.0.1:${apiPort}`,
      '}',
      '',
    ].join('\n'),
  );
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
  const child = startChild('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], { env });
  const url = `https://localhost:${port}`;
  await pollUntil(
    'caddy to answer',
    async () => {
      if (child.process.exitCode !== null) throw new Error(`caddy exited before it was ready:\n${child.output()}`);
      return answers(`${url}/api/echo`);
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  ).catch(async (err: Error) => {
    await child.stop();
    throw new Error(`${err.message}\n${child.output()}`);
  });
  return {
    child,
    url,
    stop: async () => {
      await child.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = https.get(url, { rejectUnauthorized: false, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}
