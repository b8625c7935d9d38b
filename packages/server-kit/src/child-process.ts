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

/** A loopback port that was free a moment ago, for programs that cannot listen on port 0 and report it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
