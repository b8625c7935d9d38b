import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** Resolves with the first match of pattern in the child's stdout or stderr; rejects on exit or timeout. */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
  what: string,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) finish(() => resolve(match));
    };
    const onExit = (code: number | null) =>
      finish(() => reject(new Error(`${what} exited (${code}) before it was ready:\n${seen}`)));
    const timer = setTimeout(
      () => finish(() => reject(new Error(`${what} was not ready within ${timeoutMs} ms:\n${seen}`))),
      timeoutMs,
    );
    function finish(settle: () => void) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      settle();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** SIGTERM, then SIGKILL if the child is still there after graceMs. */
export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Ports below Linux's ephemeral range (32768 up): the kernel never gives these to a listener on
 * port 0 nor to an outgoing connection's own end, which a port picked from that range could meet
 * between the pick and the program's own bind (seen: Caddy's "address already in use" while other
 * tests' browsers and clients connected).
 */
const PICKED_PORTS = { from: 20_000, to: 32_767 } as const;

/** Whether port can be listened on, on every interface (as a program that binds ":port" does). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * A port that was free a moment ago, for programs that cannot listen on port 0 and report it:
 * picked at random below the ephemeral range, and tried (at most 50 picks).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = PICKED_PORTS.from + Math.floor(Math.random() * (PICKED_PORTS.to - PICKED_PORTS.from + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port among ${PICKED_PORTS.from}-${PICKED_PORTS.to} after 50 tries`);
}
