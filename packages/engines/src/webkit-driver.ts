import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webkitDriver } from './browsers.js';

/** Every wait here is bounded: these are the bounds. */
const DRIVER_READY_MS = 20_000;
const STOP_MS = 5_000;

/**
 * Runs the rest of its arguments and stays beside them in their process group: when the process
 * that started it is gone (however it ended, SIGKILL included) or the driver exits, it kills the
 * whole group. dbus-run-session and the accessibility bus daemons outlive a killed driver
 * otherwise (PLATFORM.md).
 */
const WATCHDOG = `parent=$1; shift
"$@" &
while kill -0 "$parent" 2>/dev/null && kill -0 $! 2>/dev/null; do sleep 1; done
kill -KILL 0`;

/**
 * Xvfb, a session bus and WebKitWebDriver, in a process group of their own: stop() ends the
 * group, and so does this process's exit (the watchdog, if it is killed).
 */
export class DriverGroup {
  /** The groups still running in this process: one exit listener kills them all (a classroom runs many at once). */
  private static readonly running = new Set<DriverGroup>();
  static {
    process.on('exit', () => DriverGroup.running.forEach((group) => group.kill('SIGKILL')));
  }

  private output = '';

  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
    /** The group's HOME, removed when it stops: the session's own files go here too. */
    readonly home: string,
  ) {
    DriverGroup.running.add(this);
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-4000);
    });
  }

  /**
   * env is added to the group's environment (the browser inherits it: `check` sets its proxy
   * there). One group starts at a time in a process: `xvfb-run -a` picks the first display without a lock
   * file, and groups started at once (a classroom's pages) picked the same one (measured: "cannot
   * open display"). Each waits for the one before it to be ready or to fail.
   */
  static start(env: Record<string, string> = {}): Promise<DriverGroup> {
    const started = DriverGroup.starting.then(() => DriverGroup.startNow(env));
    DriverGroup.starting = started.then(
      () => undefined,
      () => undefined,
    );
    return started;
  }

  private static starting: Promise<void> = Promise.resolve();

  private static async startNow(env: Record<string, string>): Promise<DriverGroup> {
    const port = await freePort();
    const home = mkdtempSync(join(tmpdir(), 'origin-lab-webkit-'));
    const child = spawn(
      'sh',
      [
        '-c',
        WATCHDOG,
        'watchdog',
        String(process.pid),
        'xvfb-run',
        '-a',
        '-s',
        '-screen 0 1280x900x24',
        'dbus-run-session',
        webkitDriver,
        `--port=${port}`,
        '--host=127.0.0.1',
      ],
      // detached: setsid, a process group of its own, stopped as one.
      { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env, HOME: home } },
    );
    const group = new DriverGroup(port, child, home);
    try {
      await group.waitReady();
      return group;
    } catch (err) {
      await group.stop();
      throw err;
    }
  }

  private async waitReady(): Promise<void> {
    const deadline = Date.now() + DRIVER_READY_MS;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`WebKitWebDriver exited at start:\n${this.output}`);
      try {
        const answer = await fetch(`http://127.0.0.1:${this.port}/status`, { signal: AbortSignal.timeout(1_000) });
        const body = (await answer.json()) as { value?: { ready?: boolean } };
        if (body.value?.ready) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`WebKitWebDriver was not ready within ${DRIVER_READY_MS} ms:\n${this.output}`);
  }

  lastOutput(): string {
    return this.output;
  }

  /** SIGTERM to the group (xvfb-run removes its files), then SIGKILL to what is left after a bounded wait. */
  async stop(): Promise<void> {
    this.kill('SIGTERM');
    const deadline = Date.now() + STOP_MS;
    while (Date.now() < deadline && this.groupAlive()) await new Promise((resolve) => setTimeout(resolve, 100));
    this.kill('SIGKILL');
    DriverGroup.running.delete(this);
    rmSync(this.home, { recursive: true, force: true });
  }

  private kill(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // The group is gone.
    }
  }

  private groupAlive(): boolean {
    try {
      process.kill(-this.child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
