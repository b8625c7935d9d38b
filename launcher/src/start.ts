import { ConfigError, envInt, envString, freePort, stopOnSignals } from '@origin-lab/server-kit';
import { defaultOrigins } from '@origin-lab/api/config';
import { startEmbedded } from './embedded.js';
import { CaddyError, findCaddy, originOf, startCaddy, type CaddyOptions, type RunningCaddy } from './caddy.js';

const usage = 'usage: npm start [-- --tls]';

try {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--tls');
  if (unknown.length > 0) throw new ConfigError(`unknown option ${unknown.join(' ')}; ${usage}`);
  const tls = args.includes('--tls');

  let port = envInt(process.env, 'PORT', 8080, 0, 65_535);
  const env: Record<string, string | undefined> = { ...process.env };
  let front: Omit<CaddyOptions, 'apiUpstream' | 'pagesUpstream'> | undefined;
  if (tls) {
    if (!findCaddy(process.env))
      throw new ConfigError(
        '--tls runs the Caddyfile with Caddy, which is not installed: apt-get install caddy (or set CADDY_PATH)',
      );
    // 0 asks for free ports; the api's allowlist needs the real ones, so they are fixed here.
    if (port === 0) port = await freePort();
    const httpsPort = envInt(process.env, 'HTTPS_PORT', 8443, 0, 65_535) || (await freePort());
    const httpPort = envInt(process.env, 'HTTP_PORT', 8880, 0, 65_535) || (await freePort());
    const sites: [string, string] = [
      envString(process.env, 'SITE_A', 'a.localhost'),
      envString(process.env, 'SITE_B', 'b.localhost'),
    ];
    front = {
      sites,
      httpsPort,
      httpPort,
      dataDir: process.env.CADDY_DATA_DIR || undefined,
      executable: findCaddy(process.env),
      searchPath: process.env.PATH,
      upstreamIdleTimeout: process.env.UPSTREAM_IDLE_TIMEOUT || undefined,
    };
    env.ALLOWED_ORIGINS ||= [
      ...defaultOrigins(port),
      ...sites.map((site) => originOf('https', site, httpsPort)),
      ...sites.map((site) => originOf('http', site, httpPort)),
    ].join(',');
    // The pages swap between the two names; keep the embedded pair as well.
    env.SITE_PAIRS ||= `localhost<->127.0.0.1,${sites[0]}<->${sites[1]}`;
  }

  const stack = await startEmbedded({ port, host: process.env.HOST || undefined, env });
  let caddy: RunningCaddy | undefined;
  if (front) {
    try {
      const upstream = `127.0.0.1:${stack.port}`;
      caddy = await startCaddy({ ...front, apiUpstream: upstream, pagesUpstream: upstream });
    } catch (err) {
      await stack.stop();
      throw err;
    }
  }
  const [first, second] = stack.origins;
  const lines = caddy
    ? [
        '',
        'Origin Lab is running behind Caddy (TLS, HTTP/2). Open the same pages on two origins:',
        `  ${caddy.origins[0]}/`,
        `  ${caddy.origins[1]}/`,
        "Caddy's root certificate for this run (trust it in the browser: docs/workshop.md):",
        `  ${caddy.caCert}`,
        `Without trusting it: ${caddy.plainOrigins[0]}/ and ${caddy.plainOrigins[1]}/ (HTTP/1.1),`,
        `or without Caddy: ${first}/ and ${second}/.`,
        'A page on one is cross-origin to the other. Ctrl-C stops.',
        '',
      ]
    : [
        '',
        'Origin Lab is running. Open the same pages on two origins:',
        `  ${first}/`,
        `  ${second}/`,
        'A page on one is cross-origin to the other. Ctrl-C stops.',
        '',
      ];
  process.stderr.write(lines.join('\n') + '\n');
  stopOnSignals(
    async () => {
      await caddy?.stop();
      await stack.stop();
    },
    (line) => process.stderr.write(`${line}\n`),
  );
} catch (err) {
  if (err instanceof ConfigError || err instanceof CaddyError) {
    process.stderr.write(`${err instanceof CaddyError ? 'caddy' : 'configuration'} error: ${err.message}\n`);
    if (err instanceof CaddyError && /address already in use/.test(err.message)) {
      process.stderr.write(
        'a port Caddy needs is taken: pick others, e.g. HTTPS_PORT=9443 HTTP_PORT=9880 npm start -- --tls (0 picks free ones)\n',
      );
    }
    process.exit(2);
  }
  if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    process.stderr.write(`port ${process.env.PORT ?? 8080} is taken: start with another, e.g. PORT=8081 npm start\n`);
    process.exit(2);
  }
  throw err;
}
