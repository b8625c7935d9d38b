import { createServer } from 'node:net';
import { webkitDriver } from './browsers.js';
import { DisplayGroup } from './display-group.js';

/** Every wait here is bounded: this is the least bound on the driver's start (stopping is display-group.ts's). */
const DRIVER_READY_MS = 20_000;

/** How many ports a start tries, when the one picked was taken before WebKitWebDriver listened. */
const PORT_PICKS = 3;
/** What WebKitWebDriver says, before it exits, when its port is taken. */
const PORT_TAKEN = /Unable to listen for HTTP server/;

/**
 * Xvfb, a session bus and WebKitWebDriver, in a process group of their own (display-group.ts):
 * stop() ends the group, and so does this process's exit.
 */
export class DriverGroup {
  private constructor(
    readonly port: number,
    private readonly group: DisplayGroup,
  ) {}

  /** The group's HOME, removed when it stops: the session's own files go here too. */
  get home(): string {
    return this.group.home;
  }

  /**
   * env is added to the group's environment (the browser inherits it: `check` sets its proxy
   * there). Groups may start at once (a classroom's pages): each Xvfb picks a display of its own.
   * readyMs bounds the start (at least DRIVER_READY_MS: on two busy cores, in a container
   * starting three engines at once, it has taken longer than that).
   */
  static async start(
    env: Record<string, string> = {},
    program: string = webkitDriver,
    readyMs = DRIVER_READY_MS,
    pickPort: () => Promise<number> = freePort,
  ): Promise<DriverGroup> {
    for (let pick = 1; ; pick += 1) {
      const port = await pickPort();
      const group = DisplayGroup.start(program, [`--port=${port}`, '--host=127.0.0.1'], env);
      const driver = new DriverGroup(port, group);
      try {
        await driver.waitReady(Math.max(readyMs, DRIVER_READY_MS));
        return driver;
      } catch (err) {
        await driver.stop();
        // The port was free when picked, and taken before the driver listened (by anything that
        // listened or connected in between): a new pick, not a failure of WebKit.
        if (pick >= PORT_PICKS || !PORT_TAKEN.test(driver.lastOutput())) throw err;
      }
    }
  }

  private async waitReady(readyMs: number): Promise<void> {
    const deadline = Date.now() + readyMs;
    while (Date.now() < deadline) {
      if (this.group.exited()) throw new Error(`WebKitWebDriver exited at start:\n${this.group.lastOutput()}`);
      try {
        const answer = await fetch(`http://127.0.0.1:${this.port}/status`, { signal: AbortSignal.timeout(1_000) });
        const body = (await answer.json()) as { value?: { ready?: boolean } };
        if (body.value?.ready) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(
      `WebKitWebDriver was not ready within ${readyMs} ms on port ${this.port} (${this.group.progress()}):\n${this.group.lastOutput()}`,
    );
  }

  lastOutput(): string {
    return this.group.lastOutput();
  }

  stop(): Promise<void> {
    return this.group.stop();
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
