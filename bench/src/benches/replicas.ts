import { startRedis } from '@origin-lab/test-kit';
import type { BenchOptions } from '../lib/options.js';
import { measureInTurns, throughputFigures } from '../lib/compare.js';
import { commandExists } from '../lib/processes.js';
import type { Figure } from '../lib/report.js';
import { startReplicaFront } from '@origin-lab/launcher/caddy';
import { addressesOf, BENCH_ORIGIN, startApi, startApiReplicas, startUpstreamMock } from '../lib/servers.js';
import { ECHO_GET, plan, skipped, target } from './throughput.js';

const VISITOR = 'bench-replicas-visitor-0001';

/** What each request touches in the shared state, besides the answer itself. */
const SHAPES = [
  { name: 'GET /api/posts (the post list)', path: '/api/posts' },
  {
    name: 'GET /api/echo with a visitor token (journal entry and fair-share count)',
    path: `${ECHO_GET.path}&visitor=${VISITOR}`,
  },
  { name: 'GET /api/upstream/posts, a proxy cache hit', path: '/api/upstream/posts?perPage=5' },
] as const;

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
        const request = { path: shape.path, headers: { Origin: BENCH_ORIGIN } };
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
