import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@origin-lab/server-kit';
import { pollUntil } from './poll.js';
import { spawnWatched, type WatchedProcess } from './process.js';

/** Debian's redis-server unless REDIS_SERVER names another; npm test installs it (scripts/test/setup.sh). */
const redisServer = process.env.REDIS_SERVER ?? 'redis-server';
/** Its command-line client (the same Debian package brings it), for creating and asking a cluster. */
const redisCli = process.env.REDIS_CLI ?? 'redis-cli';
const startTimeoutMs = 10_000;

export interface RunningRedis {
  url: string;
  port: number;
  /** The server process's id (while it runs), for measuring it. */
  readonly pid: number;
  /** Shuts the server down (SIGTERM: with persistence on, it writes its data first); startAgain() brings it back. */
  shutDown(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would. */
  crash(): Promise<void>;
  /** Starts it again on the same port and data directory; nothing when it runs. */
  startAgain(): Promise<void>;
  /** Stops it for good and removes its data directory. */
  stop(): Promise<void>;
}

export interface RedisOptions {
  /** appendonly yes, appendfsync always: nothing acknowledged is lost to a restart. Off: no persistence. */
  persistence?: boolean;
}

/**
 * A real redis-server for one test file, on a free loopback port, with a data directory of its
 * own. Nothing is shared with another file or another run.
 */
export async function startRedis(options: RedisOptions = {}): Promise<RunningRedis> {
  const port = await freePort();
  return redisProcess(port, [
    '--save',
    '',
    '--appendonly',
    options.persistence ? 'yes' : 'no',
    '--appendfsync',
    'always',
  ]);
}

/** A redis-server on port with a data directory of its own and the arguments given; started before it resolves. */
async function redisProcess(port: number, moreArgs: readonly string[]): Promise<RunningRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--logfile',
    '',
    ...moreArgs,
  ];
  let server: WatchedProcess | undefined;
  let running = false;
  const start = async () => {
    if (running) return;
    const started = spawnWatched(redisServer, args);
    server = started;
    try {
      await started.waitFor(/Ready to accept connections/, startTimeoutMs, `${redisServer} on port ${port}`);
    } catch (err) {
      await started.stop(1_000);
      throw new Error(
        `${(err as Error).message}\n(redis-server is needed by the shared-state tests: npm test installs Debian's redis-server, or set REDIS_SERVER)`,
      );
    }
    running = true;
  };
  const shutDown = async () => {
    running = false;
    await server?.stop(5_000);
  };
  try {
    await start();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return server?.child.pid ?? -1;
    },
    startAgain: start,
    shutDown,
    crash: async () => {
      running = false;
      server?.child.kill('SIGKILL');
      await server?.exitWithin(5_000);
    },
    stop: async () => {
      await shutDown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RunningRedisCluster {
  /** Every node's URL, comma-separated: what REDIS_URL takes with REDIS_CLUSTER=true. */
  url: string;
  /** The primaries, in the order their slots run (the first holds slot 0). */
  nodes: RunningRedis[];
  /** The index in nodes of the node whose slots hold key. */
  nodeOf(key: string): Promise<number>;
  /** Resolves once every running node says the cluster is ok; rejects after timeoutMs. */
  whenHealthy(timeoutMs?: number): Promise<void>;
  /** Stops every node and removes their data. */
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster of primaries (no replicas) on loopback, created with `redis-cli --cluster
 * create`. A node that fails is marked so after one second (cluster-node-timeout), and the others
 * keep serving their own slots (cluster-require-full-coverage no). A node started again rejoins
 * with the slots its nodes.conf remembers.
 */
export async function startRedisCluster(primaries = 3): Promise<RunningRedisCluster> {
  const nodes: RunningRedis[] = [];
  try {
    for (let i = 0; i < primaries; i += 1) {
      const port = await freePort();
      const busPort = await freePort();
      nodes.push(
        await redisProcess(port, [
          '--save',
          '',
          '--appendonly',
          'no',
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '1000',
          '--cluster-require-full-coverage',
          'no',
        ]),
      );
    }
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await cli(['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], 30_000);
  } catch (err) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw err;
  }
  const whenHealthy = async (timeoutMs = 15_000) => {
    await pollUntil(
      'every node of the Redis cluster to say cluster_state:ok',
      async () => {
        const states = await Promise.all(
          nodes.map((node) => cli(['-p', String(node.port), 'cluster', 'info'], 2_000).catch(() => 'down')),
        );
        return states.every((state) => /cluster_state:ok/.test(state));
      },
      { timeoutMs, intervalMs: 100 },
    );
  };
  const cluster: RunningRedisCluster = {
    url: nodes.map((node) => node.url).join(','),
    nodes,
    whenHealthy,
    async nodeOf(key) {
      const slot = Number(await cli(['-p', String(nodes[0]!.port), 'cluster', 'keyslot', key], 2_000));
      for (const [index, node] of nodes.entries()) {
        const myself = (await cli(['-p', String(node.port), 'cluster', 'nodes'], 2_000))
          .split('\n')
          .find((line) => line.includes('myself'));
        const ranges = myself?.split(' ').slice(8) ?? [];
        for (const range of ranges) {
          const [from, to = from] = range.split('-').map(Number);
          if (slot >= from! && slot <= to!) return index;
        }
      }
      throw new Error(`no running node of the cluster holds slot ${slot} (key ${key})`);
    },
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
  try {
    await whenHealthy();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/** Runs redis-cli with args; its standard output, trimmed. */
function cli(args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(redisCli, args, { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${redisCli} ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}
