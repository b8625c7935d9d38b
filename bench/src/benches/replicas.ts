import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { startRedis } from '@origin-lab/test-kit';
import type { BenchOptions } from '../lib/options.js';
import { measureInTurns, throughputFigures } from '../lib/compare.js';
import { commandExists, cpuMs } from '../lib/processes.js';
import type { Figure } from '../lib/report.js';
import { startReplicaFront } from '@origin-lab/launcher/caddy';
import { addressesOf, BENCH_ORIGIN, startApi, startApiReplicas, startUpstreamMock } from '../lib/servers.js';
import { CLASS_VISITOR_PREFIX } from '../lib/wrk.js';
import { ECHO_GET, plan, skipped, target } from './throughput.js';

const VISITOR = 'bench-replicas-visitor-0001';
/** The visitors the class shape's requests are spread over, at random. */
const CLASS_VISITORS = 500;

/** What each request touches in the shared state, besides the answer itself. */
const SHAPES = [
  { name: 'GET /api/posts (the post list)', path: '/api/posts' },
  {
    name: 'GET /api/echo with a visitor token (journal entry and fair-share count)',
    path: `${ECHO_GET.path}&visitor=${VISITOR}`,
  },
  {
    name: 'GET /api/echo, each request one of 500 visitors (a class)',
    path: ECHO_GET.path,
    visitors: CLASS_VISITORS,
  },
  { name: 'GET /api/upstream/posts, a proxy cache hit', path: '/api/upstream/posts?perPage=5' },
] satisfies { name: string; path: string; visitors?: number }[];

const REPLICA_COUNTS = [1, 2, 3];

/**
 * Beyond one process. First the cost of the shared state: one api with its state in memory
 * beside one with it in Redis (a local redis-server, appendfsync always as in compose), request
 * for request. Then the echo through the repository's Caddyfile (Debian's Caddy, plain HTTP, so
 * TLS does not hide the api) in front of 1, 2 and 3 api replicas on one Redis, in turns. On a
 * two-core machine wrk, Caddy, Redis and the replicas share the cores: more replicas can only
 * show what is left over.
 */
export async function replicasBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  for (const tool of ['redis-server', 'caddy'])
    if (!commandExists(tool)) return [skipped('replicas', `${tool} is not on PATH (Debian package ${tool})`)];
  const redis = await startRedis({ persistence: true });
  const upstream = await startUpstreamMock();
  const figures: Figure[] = [];
  try {
    const memory = await startApi({ UPSTREAM_URL: upstream.url });
    const shared = await startApi({
      UPSTREAM_URL: upstream.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: 'bench-cost:',
    });
    try {
      for (const shape of SHAPES) {
        log(`  ${shape.name}: state in memory, then in Redis`);
        const request = { path: shape.path, headers: { Origin: BENCH_ORIGIN }, visitors: shape.visitors };
        const results = await measureInTurns(
          [target('memory', memory.url, request, options), target('redis', shared.url, request, options)],
          plan(options, log),
        );
        figures.push(
          ...throughputFigures(
            'replicas',
            `api ${shape.name}, state in Redis`,
            results.get('redis')!,
            results.get('memory')!,
            'the same, state in memory',
          ),
          ...(await commandsPerRequest(redis, shared.url, shape)),
        );
      }
    } finally {
      await Promise.all([memory.child.stop(), shared.child.stop()]);
    }

    figures.push(...(await throughFronts(redis.url, upstream.url, options, log)));
  } finally {
    await upstream.child.stop();
    await redis.stop();
  }
  return figures;
}

/**
 * The echo through Caddy in front of 1, 2 and 3 of the same api processes on one Redis: one front
 * per count, all measured in turns, so each count has the one-replica front beside it in time.
 */
async function throughFronts(
  redisUrl: string,
  upstreamUrl: string,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Figure[]> {
  const replicas = await startApiReplicas(Math.max(...REPLICA_COUNTS), redisUrl, {
    UPSTREAM_URL: upstreamUrl,
    REDIS_KEY_PREFIX: 'bench-front:',
  });
  const fronts = await Promise.all(
    REPLICA_COUNTS.map((count) => startReplicaFront(addressesOf(replicas.slice(0, count)))),
  );
  try {
    log(`  echo via Caddy in front of ${REPLICA_COUNTS.join(', ')} replicas, in turns`);
    const request = { path: ECHO_GET.path, headers: { ...ECHO_GET.headers, Host: 'a.localhost' } };
    const label = (count: number) => `${count} ${count === 1 ? 'replica' : 'replicas'}`;
    const results = await measureInTurns(
      REPLICA_COUNTS.map((count, i) =>
        target(label(count), `http://127.0.0.1:${fronts[i]!.httpPort}`, request, options),
      ),
      plan(options, log),
    );
    return REPLICA_COUNTS.slice(1).flatMap((count) =>
      throughputFigures(
        'replicas',
        `GET echo via Caddy (HTTP/1.1), ${count} api replicas on Redis`,
        results.get(label(count))!,
        results.get(label(1))!,
        '1 replica, the same Caddyfile, measured in turns',
      ),
    );
  } finally {
    await Promise.all(fronts.map((front) => front.stop()));
    await Promise.all(replicas.map((replica) => replica.child.stop()));
  }
}

/** How many requests commandsPerRequest sends, a few at a time, after a warm-up of as many. */
const COUNTED_REQUESTS = 2_000;
const COUNTED_AT_ONCE = 20;

/** Redis's own count of each command it ran since its last CONFIG RESETSTAT, and the time it took (INFO commandstats). */
async function commandStats(port: number): Promise<Map<string, { calls: number; usec: number }>> {
  const { stdout } = await promisify(execFile)('redis-cli', ['-p', String(port), 'info', 'commandstats'], {
    timeout: 10_000,
  });
  const calls = new Map<string, { calls: number; usec: number }>();
  for (const [, name, count, usec] of stdout.matchAll(/^cmdstat_([\w|-]+):calls=(\d+),usec=(\d+)/gm))
    calls.set(name!, { calls: Number(count), usec: Number(usec) });
  return calls;
}

/**
 * Every command a client sends Redis while watched, by name (redis-cli MONITOR, which marks a
 * script's own calls "lua" and leaves them out here): what commandstats cannot tell apart.
 */
function watchSentCommands(port: number): { stop: () => Promise<Map<string, number>> } {
  const monitor = spawn('redis-cli', ['-p', String(port), 'monitor'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => monitor.once('exit', resolve).once('error', resolve));
  const sent = new Map<string, number>();
  let rest = '';
  monitor.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const found = /^[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"/.exec(line);
      if (!found || found[1] === 'lua') continue;
      const name = found[2]!.toLowerCase();
      if (name !== 'monitor') sent.set(name, (sent.get(name) ?? 0) + 1);
    }
  });
  return {
    stop: async () => {
      monitor.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      return sent;
    },
  };
}

/**
 * What one request of this shape costs Redis over COUNTED_REQUESTS requests: the commands the api
 * sends (scripts and single commands, watched with MONITOR; several sent in one turn share a round
 * trip through ioredis's auto-pipelining), and every command Redis runs, inside the scripts too
 * (Redis's own INFO commandstats).
 */
async function commandsPerRequest(
  redis: { port: number; pid: number },
  api: string,
  shape: (typeof SHAPES)[number],
): Promise<Figure[]> {
  const redisPort = redis.port;
  const send = async (count: number) => {
    for (let sent = 0; sent < count; sent += COUNTED_AT_ONCE)
      await Promise.all(
        Array.from({ length: COUNTED_AT_ONCE }, async () => {
          const visitor = shape.visitors
            ? `&visitor=${CLASS_VISITOR_PREFIX}${1 + Math.floor(Math.random() * shape.visitors)}`
            : '';
          const answer = await fetch(`${api}${shape.path}${visitor}`, { headers: { Origin: BENCH_ORIGIN } });
          await answer.arrayBuffer();
        }),
      );
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
  await send(COUNTED_REQUESTS / 10);
  await settle();
  // Counted and timed by Redis first, then watched: a monitor makes Redis format every command
  // for it, scripts' own calls inside the scripts' time, which would count against them.
  await promisify(execFile)('redis-cli', ['-p', String(redisPort), 'config', 'resetstat'], { timeout: 10_000 });
  const cpuBefore = cpuMs(redis.pid);
  await send(COUNTED_REQUESTS);
  // What the api sends after its answers (the journal entry, the release), then count.
  await settle();
  const cpu = cpuMs(redis.pid) - cpuBefore;
  const stats = await commandStats(redisPort);
  const watch = watchSentCommands(redisPort);
  let sent: Map<string, number>;
  try {
    await settle();
    await send(COUNTED_REQUESTS);
    await settle();
  } finally {
    sent = await watch.stop();
  }
  for (const tool of ['config|resetstat', 'info', 'monitor']) stats.delete(tool);
  const ran = new Map([...stats].map(([name, { calls }]) => [name, calls]));
  // A script's time includes its own calls': the scripts' and the single commands' time is Redis's.
  const usec = [...stats]
    .filter(([name]) => /^(evalsha|eval|fcall)/.test(name) || sent.has(name))
    .reduce((sum, [, stat]) => sum + stat.usec, 0);
  const total = (calls: Map<string, number>) => [...calls.values()].reduce((sum, n) => sum + n, 0);
  const listed = (calls: Map<string, number>) =>
    [...calls]
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} ${(n / COUNTED_REQUESTS).toFixed(2)}`)
      .join(', ');
  return [
    {
      bench: 'replicas',
      name: `api ${shape.name}, state in Redis: commands sent per request`,
      value: total(sent) / COUNTED_REQUESTS,
      unit: '',
      note: `${COUNTED_REQUESTS} requests, ${COUNTED_AT_ONCE} at a time; per request: ${listed(sent)}`,
    },
    {
      bench: 'replicas',
      name: `api ${shape.name}, state in Redis: commands Redis runs per request (scripts' own calls too)`,
      value: total(ran) / COUNTED_REQUESTS,
      unit: '',
      note: `INFO commandstats; per request: ${listed(ran)}`,
    },
    {
      bench: 'replicas',
      name: `api ${shape.name}, state in Redis: Redis's time per request`,
      value: usec / COUNTED_REQUESTS,
      unit: 'µs',
      note: `INFO commandstats (the commands' own time, not the network's); one Redis core would serve about ${Math.round((COUNTED_REQUESTS * 1e6) / usec).toLocaleString('en-US')} such requests a second`,
    },
    {
      bench: 'replicas',
      name: `api ${shape.name}, state in Redis: Redis's CPU per request (reading, running, answering)`,
      value: (cpu * 1000) / COUNTED_REQUESTS,
      unit: 'µs',
      note: `the redis-server process's user and system time over the ${COUNTED_REQUESTS} requests (/proc, 10 ms steps, an idle second's housekeeping included); one Redis core would serve about ${cpu > 0 ? Math.round((COUNTED_REQUESTS * 1000) / cpu).toLocaleString('en-US') : 'n/a'} such requests a second`,
    },
  ];
}
