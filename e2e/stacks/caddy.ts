import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { HostPair } from '@origin-lab/contract';
import { DEFAULT_THIRD_SITE, freePort, stopChild } from '@origin-lab/server-kit';
import { originOf, startCaddy } from '@origin-lab/launcher/caddy';
import { publishPlainOrigins, waitForHttp } from './tls-front.js';
import type { Stack } from './stack.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const sites: HostPair = ['a.localhost', 'b.localhost'];

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
    });
    stopCaddy = () => caddy.stop();
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
