import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { measureInTurns, throughputFigures, type LoadTarget } from '../lib/compare.js';
import { wrk, type WrkRequest } from '../lib/wrk.js';
import { h2load } from '../lib/h2load.js';
import { commandExists } from '../lib/processes.js';
import { freePort } from '@origin-lab/server-kit';
import { startCaddy as startRepositoryCaddy } from '@origin-lab/launcher/caddy';
import {
  BENCH_ORIGIN,
  startApi,
  startApiLoggingToFile,
  startBareEcho,
  startCaddy,
  startKoaMinimalEcho,
  startKoaRouterEcho,
  startKoaRouterEchoLoggingToFile,
  startUpstreamMock,
  type Server,
} from '../lib/servers.js';

export type Shape = Omit<WrkRequest, 'url' | 'connections' | 'durationS'> & { path: string };

/** A 200-byte JSON body, the size of a small form posted as JSON. */
export const POST_BODY = (() => {
  const base = { title: 'Preflight, explained with one OPTIONS', author: 'Grace', tags: 'cors,preflight', note: '' };
  const padding = 200 - JSON.stringify(base).length;
  return JSON.stringify({ ...base, note: 'x'.repeat(padding) });
})();

export const ECHO_GET: Shape = { path: '/api/echo?name=ada&tags=cors&n=1', headers: { Origin: BENCH_ORIGIN } };
const ECHO_POST: Shape = {
  path: '/api/echo',
  method: 'POST',
  headers: { Origin: BENCH_ORIGIN, 'Content-Type': 'application/json' },
  body: POST_BODY,
};
const PREFLIGHT: Shape = {
  path: '/api/echo',
  method: 'OPTIONS',
  headers: {
    Origin: BENCH_ORIGIN,
    'Access-Control-Request-Method': 'POST',
    'Access-Control-Request-Headers': 'content-type',
  },
};

export function target(label: string, base: string, shape: Shape, options: BenchOptions, tool = wrk): LoadTarget {
  return { label, run: (durationS) => load(base, shape, options, durationS, tool) };
}

function load(base: string, shape: Shape, options: BenchOptions, durationS: number, tool = wrk) {
  const { path, ...request } = shape;
  return tool({ ...request, url: `${base}${path}`, connections: options.connections, durationS });
}

/**
 * A target that starts a new process of its server for each run, warms it, measures it and stops
 * it. Two processes of one program can differ by several percent for as long as they live (up to
 * 13% measured, more than a 10% target's margin), so a figure from one process of each side says
 * as much about that draw as about the code; a median over runs, each with new processes, does not.
 */
export function freshEachRun(
  label: string,
  start: () => Promise<Server>,
  shape: Shape,
  options: BenchOptions,
  warmupS: number,
): LoadTarget {
  return {
    label,
    warm: () => Promise.resolve(),
    run: async (durationS) => {
      const server = await start();
      try {
        await load(server.url, shape, options, warmupS);
        return await load(server.url, shape, options, durationS);
      } finally {
        await server.child.stop();
      }
    },
  };
}

export function plan(options: BenchOptions, log: (line: string) => void) {
  return { runs: options.runs, durationS: options.durationS, warmupS: options.quick ? 1 : 2, log };
}

/**
 * Echo GET and POST: the api beside a bare node:http echo with the same answer, beside the
 * cheapest Koa app giving that answer (what any Koa app pays), and beside that Koa app routed
 * with @koa/router (what any routed Koa app pays); also the api with its request log on, as
 * configured by default and with every line written. Every run of every target is a new process
 * (freshEachRun), and a second Koa + @koa/router target shows how far two processes of one
 * program still differ: the resolution of every ratio here.
 */
export async function echoBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const turns = { ...plan(options, log), runs: options.echoRuns, durationS: options.echoDurationS };
  const fresh = (label: string, start: () => Promise<Server>, shape: Shape) =>
    freshEachRun(label, start, shape, options, turns.warmupS);
  // The same four servers answer GET and POST; labels read "<server> <method>".
  const servers: [string, () => Promise<Server>][] = [
    ['bare', startBareEcho],
    ['minimal Koa', startKoaMinimalEcho],
    ['Koa + router', startKoaRouterEcho],
    ['api', () => startApi()],
  ];
  // Each method's request, and how its figures name it.
  const methods = [
    { method: 'GET', shape: ECHO_GET, described: 'GET /api/echo?query' },
    { method: 'POST', shape: ECHO_POST, described: 'POST /api/echo 200-byte JSON' },
  ];
  const results = await measureInTurns(
    [
      ...methods.flatMap(({ method, shape }) =>
        servers.map(([name, start]) => fresh(`${name} ${method}`, start, shape)),
      ),
      fresh('Koa + router GET, another process', startKoaRouterEcho, ECHO_GET),
      fresh('api GET, request log on', () => startApiLoggingToFile(), ECHO_GET),
      fresh(
        'api GET, every request line',
        () => startApiLoggingToFile({ LOG_REQUEST_LINES_PER_SECOND: '0' }),
        ECHO_GET,
      ),
      fresh('Koa + router GET, request log on', startKoaRouterEchoLoggingToFile, ECHO_GET),
    ],
    turns,
  );
  const get = (label: string) => results.get(label)!;
  const figures: Figure[] = [];
  for (const { method, described } of methods) {
    // No target beside bare node:http: a Koa + @koa/router echo itself stays below 0.8x of it on
    // these machines (0.68x), so the api is held to >= 0.9x of that floor instead (below).
    const [rps, p99] = throughputFigures(
      'echo',
      `api ${described}`,
      get(`api ${method}`),
      get(`bare ${method}`),
      'bare node:http',
    );
    const [koaFloor] = throughputFigures(
      'echo',
      `cheapest Koa echo, ${method} (Koa's floor)`,
      get(`minimal Koa ${method}`),
      get(`bare ${method}`),
      'bare node:http',
    );
    const [routerFloor] = throughputFigures(
      'echo',
      `Koa + @koa/router echo, ${method} (a routed Koa app's floor)`,
      get(`Koa + router ${method}`),
      get(`bare ${method}`),
      'bare node:http',
    );
    const [routerOverKoa] = throughputFigures(
      'echo',
      `Koa + @koa/router echo ${method} vs cheapest Koa echo`,
      get(`Koa + router ${method}`),
      get(`minimal Koa ${method}`),
      'cheapest Koa echo',
    );
    const [apiOverKoa] = throughputFigures(
      'echo',
      `api ${method} vs cheapest Koa echo`,
      get(`api ${method}`),
      get(`minimal Koa ${method}`),
      'cheapest Koa echo',
    );
    const [apiOverRouter] = throughputFigures(
      'echo',
      `api ${method} vs Koa + @koa/router echo`,
      get(`api ${method}`),
      get(`Koa + router ${method}`),
      'Koa + @koa/router echo',
      0.9,
    );
    figures.push(rps!, p99!, koaFloor!, routerFloor!, routerOverKoa!, apiOverKoa!, apiOverRouter!);
  }
  figures.push(
    throughputFigures(
      'echo',
      'Koa + @koa/router echo GET, other processes vs the first (two processes of one server, each run)',
      get('Koa + router GET, another process'),
      get('Koa + router GET'),
      'Koa + @koa/router echo',
    )[0]!,
    ...throughputFigures(
      'echo',
      'api GET, request log on, default line limit (stdout to a file)',
      get('api GET, request log on'),
      get('api GET'),
      'the same api, log off',
      0.9,
      1.5,
    ),
    ...throughputFigures(
      'echo',
      'api GET, every request line written (LOG_REQUEST_LINES_PER_SECOND=0, stdout to a file)',
      get('api GET, every request line'),
      get('api GET'),
      'the same api, log off',
    ),
    ...throughputFigures(
      'echo',
      "Koa + @koa/router echo with the api's request log (the logger's floor)",
      get('Koa + router GET, request log on'),
      get('Koa + router GET'),
      'the same echo, log off',
    ),
  );
  return figures;
}

/** Preflight OPTIONS from an allowed origin, beside the api's own echo GET in the same run. */
export async function preflightBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const bare = await startBareEcho();
  const api = await startApi();
  try {
    const results = await measureInTurns(
      [
        target('api OPTIONS', api.url, PREFLIGHT, options),
        target('api GET', api.url, ECHO_GET, options),
        target('bare OPTIONS', bare.url, PREFLIGHT, options),
      ],
      plan(options, log),
    );
    const get = (label: string) => results.get(label)!;
    return [
      ...throughputFigures(
        'preflight',
        'api OPTIONS (allowed origin)',
        get('api OPTIONS'),
        get('api GET'),
        'api echo GET',
        1.0,
      ),
      ...throughputFigures(
        'preflight',
        'api OPTIONS vs bare',
        get('api OPTIONS'),
        get('bare OPTIONS'),
        'bare node:http OPTIONS',
      ).slice(0, 1),
    ];
  } finally {
    await Promise.all([bare.child.stop(), api.child.stop()]);
  }
}

/** Proxy cache hits (/api/upstream/tags after one miss) beside the api's echo GET. */
export async function proxyBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const upstream = await startUpstreamMock();
  const api = await startApi({ UPSTREAM_URL: upstream.url, PROXY_CACHE_TTL_SECONDS: '3600' });
  try {
    const proxied: Shape = { path: '/api/upstream/tags', headers: { Origin: BENCH_ORIGIN } };
    const first = await fetch(`${api.url}${proxied.path}`);
    await first.arrayBuffer();
    if (first.status !== 200)
      throw new Error(`the proxy answered ${first.status} to its first call; is the upstream-mock serving /tags?`);
    const results = await measureInTurns(
      [target('api proxy hit', api.url, proxied, options), target('api GET', api.url, ECHO_GET, options)],
      plan(options, log),
    );
    const last = await fetch(`${api.url}${proxied.path}`);
    await last.arrayBuffer();
    const figures = throughputFigures(
      'proxy',
      'api GET /api/upstream/tags (cache hit)',
      results.get('api proxy hit')!,
      results.get('api GET')!,
      'api echo GET',
      0.8,
    );
    if (last.headers.get('x-cache') !== 'HIT')
      figures[0]!.note = `the answer after the run was X-Cache: ${last.headers.get('x-cache')}, not HIT`;
    return figures;
  } finally {
    await Promise.all([upstream.child.stop(), api.child.stop()]);
  }
}

/**
 * The api through Caddy over HTTP/1.1 and HTTP/2 (both TLS): a minimal Caddy reverse proxy (the
 * floor: TLS and one reverse_proxy line) beside the api reached directly, and the repository's
 * Caddyfile beside that floor, all measured in turns in the same run.
 */
export async function caddyBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  if (!commandExists('caddy')) return [skipped('caddy', 'caddy is not on PATH (Debian package caddy)')];
  const h2 = commandExists('h2load');
  const api = await startApi();
  const minimal = await startCaddy(api.port);
  const address = `127.0.0.1:${api.port}`;
  const repository = await startRepositoryCaddy({
    sites: ['localhost', 'b.localhost'],
    httpsPort: await freePort(),
    httpPort: await freePort(),
    apiUpstream: address,
    pagesUpstream: address,
  }).catch(async (err: unknown) => {
    await minimal.stop();
    await api.child.stop();
    throw err;
  });
  const repositoryUrl = repository.origins[0];
  try {
    const protocols = [
      { name: 'HTTP/1.1', key: 'h1', tool: wrk },
      ...(h2 ? [{ name: 'HTTP/2', key: 'h2', tool: h2load }] : []),
    ];
    const shapes = [
      { name: 'GET', shape: ECHO_GET },
      { name: 'POST', shape: ECHO_POST },
    ];
    const targets = shapes.flatMap(({ name, shape }) => [
      target(`api ${name}`, api.url, shape, options),
      ...protocols.flatMap(({ key, tool }) => [
        target(`minimal ${key} ${name}`, minimal.url, shape, options, tool),
        target(`repository ${key} ${name}`, repositoryUrl, shape, options, tool),
      ]),
    ]);
    const results = await measureInTurns(targets, plan(options, log));
    const get = (label: string) => results.get(label)!;
    const figures = shapes.flatMap(({ name }) =>
      protocols.flatMap(({ name: protocol, key }) => [
        ...throughputFigures(
          'caddy',
          `${name} echo via a minimal Caddy, ${protocol} + TLS`,
          get(`minimal ${key} ${name}`),
          get(`api ${name}`),
          'api direct',
        ),
        ...throughputFigures(
          'caddy',
          `${name} echo via the repository's Caddyfile, ${protocol} + TLS`,
          get(`repository ${key} ${name}`),
          get(`minimal ${key} ${name}`),
          'a minimal Caddy reverse proxy',
          0.9,
        ),
      ]),
    );
    if (!h2)
      figures.push(skipped('caddy', 'HTTP/2 figures skipped: h2load is not on PATH (Debian package nghttp2-client)'));
    return figures;
  } finally {
    await repository.stop();
    await minimal.stop();
    await api.child.stop();
  }
}

export function skipped(bench: string, reason: string): Figure {
  return { bench, name: 'skipped', value: NaN, unit: '', note: reason };
}
