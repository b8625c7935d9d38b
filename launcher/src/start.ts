import {
  ConfigError,
  freePort,
  listenFromEnv,
  readSettings,
  startFailure,
  stopOnSignals,
  type Listen,
} from '@origin-lab/server-kit';
import { defaultOrigins } from '@origin-lab/api';
import { startEmbedded, type EmbeddedStack } from './embedded.js';
import { CaddyError, findCaddy, originOf, startCaddy, type CaddyOptions, type RunningCaddy } from './caddy.js';
import { siteNamesFromEnv, type SiteNames } from './site-names.js';
import { LAUNCHER_SETTINGS, TLS_FRONT_SETTINGS } from './settings.js';

const usage = 'usage: npm start [-- --tls] [--rebind]';

/** Caddy's options for --tls, less the upstream (the embedded stack's, known once it listens). */
type Front = Omit<CaddyOptions, 'apiUpstream' | 'pagesUpstream' | 'onRunning'>;

// What has started so far, stopped newest first on SIGINT or SIGTERM, also while the rest is
// still starting (Caddy may take 20 s, and its throwaway folder holds its CA's key).
const started: (() => Promise<void>)[] = [];
let stopping = false;
stopOnSignals(
  async () => {
    stopping = true;
    for (const stop of started.reverse()) await stop();
  },
  (line) => process.stderr.write(`${line}\n`),
);

/** The options npm start takes: --tls and --rebind. Anything else is a ConfigError. */
function startOptions(args: string[], env: NodeJS.ProcessEnv): { tls: boolean; rebind: boolean } {
  const unknown = args.filter((arg) => arg !== '--tls' && arg !== '--rebind');
  if (unknown.length > 0) throw new ConfigError(`unknown option ${unknown.join(' ')}; ${usage}`);
  // `npm start --tls` (no --) gives the option to npm, which warns and passes nothing on.
  const toNpm = ['tls', 'rebind'].filter((name) => env[`npm_config_${name}`] !== undefined).map((name) => `--${name}`);
  if (toNpm.length > 0)
    throw new ConfigError(`npm took ${toNpm.join(' ')} for itself: write npm start -- ${toNpm.join(' ')}`);
  return { tls: args.includes('--tls'), rebind: args.includes('--rebind') };
}

/** Caddy's part of --tls: its ports (0 or unset: free ones) and settings from the environment. */
async function tlsFront(env: NodeJS.ProcessEnv, sites: SiteNames, third: string | undefined): Promise<Front> {
  const executable = findCaddy(env);
  if (!executable)
    throw new ConfigError(
      '--tls runs the Caddyfile with Caddy, which is not installed: apt-get install caddy (or set CADDY_PATH)',
    );
  const ports = readSettings(TLS_FRONT_SETTINGS, env);
  return {
    sites,
    third: third && third !== 'none' ? third : undefined,
    httpsPort: ports.httpsPort || (await freePort()),
    httpPort: ports.httpPort || (await freePort()),
    dataDir: env.CADDY_DATA_DIR || undefined,
    executable,
    searchPath: env.PATH,
    upstreamIdleTimeout: env.UPSTREAM_IDLE_TIMEOUT || undefined,
    upstreamIdleConns: env.UPSTREAM_IDLE_CONNS || undefined,
    acmeEmail: env.ACME_EMAIL || undefined,
    acmeCa: env.ACME_CA || undefined,
    trustedRoots: env.SSL_CERT_FILE || undefined,
    report: (line) => process.stderr.write(`caddy: ${line}\n`),
  };
}

/** The origins the api allows: its defaults, and each site's under Caddy (both schemes) or on the port. */
function allowedOrigins(port: number, sites: SiteNames, front: Front | undefined): string {
  const named = front
    ? [
        ...sites.map((site) => originOf('https', site, front.httpsPort)),
        ...sites.map((site) => originOf('http', site, front.httpPort)),
      ]
    : sites.map((site) => originOf('http', site, port));
  return [...defaultOrigins(port), ...named].join(',');
}

/** Where Caddy reaches the launcher: its loopback, or the one address HOST names. */
function upstreamHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** What the terminal is told once everything runs: where to open the pages, and what to know. */
function runningLines(
  stack: EmbeddedStack,
  caddy: RunningCaddy | undefined,
  front: Front | undefined,
  sites: SiteNames | undefined,
  host: string | undefined,
): string[] {
  const [first, second] = stack.origins;
  const local = `${first}/ and ${second}/`;
  let lines: string[];
  if (caddy) {
    const { publicNames } = caddy;
    lines = [
      '',
      'Origin Lab is running behind Caddy (TLS, HTTP/2). Open the same pages on two origins:',
      `  ${caddy.origins[0]}/`,
      `  ${caddy.origins[1]}/`,
      ...(publicNames.length < 2
        ? ["Caddy's root certificate for this run (trust it in the browser: docs/workshop.md):", `  ${caddy.caCert}`]
        : []),
      ...(publicNames.length > 0
        ? [
            `Certificates for ${publicNames.join(' and ')} come from ${front?.acmeCa ?? "Let's Encrypt"}; Caddy is getting them now (progress below).`,
          ]
        : []),
      ...(caddy.http2Warning ? [`Warning: ${caddy.http2Warning}`] : []),
      `Without TLS: ${caddy.plainOrigins[0]}/ and ${caddy.plainOrigins[1]}/ (HTTP/1.1),`,
      `or without Caddy: ${local}.`,
      'A page on one is cross-origin to the other. Ctrl-C stops.',
      '',
    ];
  } else if (sites) {
    lines = [
      '',
      'Origin Lab is running. Give the class these two addresses (a page on one is cross-origin to the other):',
      `  ${originOf('http', sites[0], stack.port)}/`,
      `  ${originOf('http', sites[1], stack.port)}/`,
      'Plain HTTP: pages there are not a secure context (docs/classroom.md says what that changes).',
      ...(/^(127\.|localhost$|::1$)/.test(host ?? '')
        ? [`HOST=${host} listens on this machine only: other devices cannot reach it (leave HOST unset).`]
        : []),
      `On this machine also ${local}. Ctrl-C stops.`,
      '',
    ];
  } else {
    lines = [
      '',
      'Origin Lab is running. Open the same pages on two origins:',
      `  ${first}/`,
      `  ${second}/`,
      'A page on one is cross-origin to the other. Ctrl-C stops.',
      '',
    ];
  }
  if (stack.rebind)
    lines.push(
      'The DNS rebinding lab is on: set a browser profile to the resolver below (docs/local-servers.md),',
      `  ${stack.rebind.resolver}`,
      `and open ${stack.origins[1]}/local-network.html#rebinding.`,
      '',
    );
  // 127.0.0.1 is IPv4: a server on IPv6's loopback alone does not answer there.
  if (host === '::1')
    lines.splice(
      -1,
      0,
      `HOST=::1 listens on IPv6 only, so ${second}/ does not answer: use HOST=127.0.0.1 or leave HOST unset.`,
    );
  return lines;
}

/**
 * Starts the embedded stack, and Caddy in front of it for --tls, then says where to open the
 * pages. listening is where the launcher listens, settled here (for a failure to name it).
 */
async function start(listening: Listen): Promise<void> {
  const { tls, rebind } = startOptions(process.argv.slice(2), process.env);
  Object.assign(listening, listenFromEnv(LAUNCHER_SETTINGS, process.env));
  const env: Record<string, string | undefined> = { ...process.env };
  const named = siteNamesFromEnv(process.env);
  // The api's allowlist needs the real ports, so 0 (any free port) is settled here.
  if ((tls || named) && listening.port === 0) listening.port = await freePort();
  const { port, host } = listening;
  // A class's own names: c.localhost would reach each student's own machine, not this server, so
  // there is no third origin unless SITE_C names one (the api and the pages read it).
  if (named && !process.env.SITE_C?.trim()) env.SITE_C = 'none';
  const sites = named ?? (tls ? (['a.localhost', 'b.localhost'] as SiteNames) : undefined);
  const front = tls ? await tlsFront(process.env, sites!, env.SITE_C?.trim().toLowerCase()) : undefined;
  if (sites) {
    env.ALLOWED_ORIGINS ||= allowedOrigins(port, sites, front);
    // The pages swap between the two names; keep the embedded pair as well.
    env.SITE_PAIRS ||= `localhost<->127.0.0.1,${sites[0]}<->${sites[1]}`;
  }

  const stack = await startEmbedded({ port, host, env, behindCaddy: tls, rebind });
  started.push(() => stack.stop());
  let caddy: RunningCaddy | undefined;
  if (front) {
    const upstream = `${upstreamHost(host)}:${stack.port}`;
    const onRunning = (stop: () => Promise<void>) => void started.push(stop);
    try {
      caddy = await startCaddy({ ...front, apiUpstream: upstream, pagesUpstream: upstream, onRunning });
    } catch (err) {
      await stack.stop();
      throw err;
    }
  }
  process.stderr.write(runningLines(stack, caddy, front, sites, host).join('\n') + '\n');
}

/** Why the start failed, in one line and exit 2 where it is the user's to mend; thrown otherwise. */
function reportFailure(err: unknown, listening: Listen): void {
  if (err instanceof CaddyError) {
    process.stderr.write(`caddy error: ${err.message}\n`);
    if (/address already in use/.test(err.message))
      process.stderr.write(
        'a port Caddy needs is taken: pick others, e.g. HTTPS_PORT=9443 HTTP_PORT=9880 npm start -- --tls (0 picks free ones)\n',
      );
    process.exit(2);
  }
  const failure = startFailure(err, listening, 'PORT=8081 npm start');
  if (failure === null) throw err;
  process.stderr.write(`${failure}\n`);
  process.exit(2);
}

const listening: Listen = { port: LAUNCHER_SETTINGS.port.default, host: process.env.HOST };
try {
  await start(listening);
} catch (err) {
  // A signal during the start: its stop ends the process (what failed here failed for that).
  if (!stopping) reportFailure(err, listening);
}
