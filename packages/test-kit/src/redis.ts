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
