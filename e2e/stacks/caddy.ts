import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostPair } from '@origin-lab/contract';
import { DEFAULT_THIRD_SITE, freePort, stopChild } from '@origin-lab/server-kit';
import { originOf, startCaddy } from '@origin-lab/launcher/caddy';
import { publishPlainOrigins, waitForHttp } from './tls-front.js';
import type { Stack } from './stack.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const sites: HostPair = ['a.localhost', 'b.localhost'];

/** Where Caddy's whole log is kept: a failed run's evidence (did a request reach the api?), read after it. */
export const caddyLogFile = join(repoRoot, '.tmp', 'e2e-caddy.log');

/**
 * One line on the requests Caddy answered itself (its error log: a 502 when the way to the api
 * failed, a 503 "no upstreams available" when it had no api to send to), counted by kind. A
 * request the browser left while its body was still being sent (a page closing on a beacon) is
 * logged as a 502 "client disconnected" that nobody received: counted apart.
 */
function caddyOwnAnswers(log: string): string {
  const counts = new Map<string, number>();
  let left = 0;
  for (const line of log.split('\n')) {
    if (!line.includes('"logger":"http.log.error"')) continue;
    let entry: { msg?: string; status?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (entry.msg?.endsWith('client disconnected')) {
      left += 1;
      continue;
    }
    // The same failure on another connection is the same kind: addresses out.
    const message = (entry.msg ?? '').replace(/(\d+\.\d+\.\d+\.\d+|\[[^\]]*\]):\d+/g, '…');
    const what = `${entry.status ?? '?'} ${message}`.trim();
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  const leftNote = left > 0 ? ` (${left} request(s) the browser left while sending, logged as 502)` : '';
  if (counts.size === 0) return `Caddy answered no request itself${leftNote}`;
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const listed = [...counts].map(([what, count]) => `${count} × ${what}`).join('; ');
  return `Caddy made ${total} answer(s) itself, not the api's: ${listed}${leftNote}`;
}

/**
 * The product's real shape on local processes: api, pages and upstream-mock each in its own
 * process on a free port, and the repository's Caddyfile in front of them with Debian's caddy
 * (TLS from a fresh local CA, HTTP/2) on https://a.localhost:PORT and https://b.localhost:PORT.
 */
export async function startCaddyStack(): Promise<Stack> {
  const children: ChildProcess[] = [];
  let stopCaddy = async () => {};
  const stop = async () => {
    await stopCaddy();
    await Promise.all(children.map((child) => stopChild(child, 5_000)));
  };
  mkdirSync(dirname(caddyLogFile), { recursive: true });
  try {
    const [httpsPort, httpPort, apiPort, pagesPort, mockPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const key = randomBytes(18).toString('base64url');
    const allowed = sites.flatMap((site) => [originOf('https', site, httpsPort), originOf('http', site, httpPort)]);
    const run = (service: string, port: number, env: Record<string, string>) => {
      const child = spawn(process.execPath, [`services/${service}/dist/main.js`], {
        cwd: repoRoot,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_REQUESTS: 'false', ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return waitForHttp(`http://127.0.0.1:${port}/`, 15_000, `the ${service} service`, child);
    };
    await Promise.all([
      run('upstream-mock', mockPort, { UPSTREAM_API_KEY: key }),
      run('api', apiPort, {
        UPSTREAM_URL: `http://127.0.0.1:${mockPort}`,
        UPSTREAM_API_KEY: key,
        ALLOWED_ORIGINS: allowed.join(','),
      }),
      run('pages', pagesPort, {}),
    ]);
    const caddy = await startCaddy({
      sites,
      httpsPort,
      httpPort,
      apiUpstream: `127.0.0.1:${apiPort}`,
      pagesUpstream: `127.0.0.1:${pagesPort}`,
      logFile: caddyLogFile,
    });
    stopCaddy = async () => {
      await caddy.stop();
      let said: string;
      try {
        said = caddyOwnAnswers(readFileSync(caddyLogFile, 'utf8'));
      } catch (err) {
        said = `its log could not be read: ${(err as Error).message}`;
      }
      console.log(`[e2e] caddy stack: ${said}; its log is in ${caddyLogFile}`);
    };
    publishPlainOrigins('caddy', caddy.plainOrigins);
    return {
      name: 'caddy',
      origins: caddy.origins,
      third: originOf('https', DEFAULT_THIRD_SITE, httpsPort),
      caCert: caddy.caCert,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
