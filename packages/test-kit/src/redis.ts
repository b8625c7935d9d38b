import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@origin-lab/server-kit';
import { spawnWatched, type WatchedProcess } from './process.js';

/** Debian's redis-server unless REDIS_SERVER names another; npm test installs it (scripts/test/setup.sh). */
const redisServer = process.env.REDIS_SERVER ?? 'redis-server';
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
  /** Starts it again on the same port and data directory. */
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
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.persistence ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--daemonize',
    'no',
    '--logfile',
    '',
  ];
  let server: WatchedProcess | undefined;
  const start = async () => {
    server = spawnWatched(redisServer, args);
    await server
      .waitFor(/Ready to accept connections/, startTimeoutMs, `${redisServer} on port ${port}`)
      .catch((err: Error) => {
        throw new Error(
          `${err.message}\n(redis-server is needed by the shared-state tests: npm test installs Debian's redis-server, or set REDIS_SERVER)`,
        );
      });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return server?.child.pid ?? -1;
    },
    startAgain: start,
    shutDown: async () => server?.stop(5_000),
    crash: async () => {
      server?.child.kill('SIGKILL');
      await server?.exitWithin(5_000);
    },
    stop: async () => {
      await server?.stop(5_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
