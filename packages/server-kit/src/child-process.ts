import type { ChildProcess } from 'node:child_process';
import { mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
 * Where picks are written down, one empty file per port, so that two processes on this machine
 * never hand out the same port before either has bound it (seen: two of the suite's Caddy runs
 * picking one port, the second failing with "address already in use"). A process removes its
 * own files as it exits; a file older than RESERVED_MS is a crashed process's, and is reused.
 */
const RESERVATIONS = join(tmpdir(), 'origin-lab-ports');
const RESERVED_MS = 120_000;
const reservedHere: string[] = [];

function releaseReservations(): void {
  for (const file of reservedHere.splice(0)) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone: another process found it stale.
    }
  }
}

/** Whether port is now this process's to hand out: no other process picked it within RESERVED_MS. */
function reserve(port: number): boolean {
  const file = join(RESERVATIONS, String(port));
  try {
    if (Date.now() - statSync(file).mtimeMs < RESERVED_MS) return false;
    unlinkSync(file);
  } catch {
    // No file, or another process removed the stale one first: try to create it.
  }
  try {
    mkdirSync(RESERVATIONS, { recursive: true });
    writeFileSync(file, '', { flag: 'wx' });
  } catch (err) {
    // Taken; or no writing there (another user's folder): then the bind check alone decides.
    return (err as NodeJS.ErrnoException).code !== 'EEXIST';
  }
  if (reservedHere.length === 0) process.once('exit', releaseReservations);
  reservedHere.push(file);
  return true;
}

/**
 * A port that was free a moment ago, for programs that cannot listen on port 0 and report it:
 * picked at random below the ephemeral range, not picked by another process lately, and tried
 * (at most 50 picks).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = PICKED_PORTS.from + Math.floor(Math.random() * (PICKED_PORTS.to - PICKED_PORTS.from + 1));
    if (reserve(port) && (await bindable(port))) return port;
  }
  throw new Error(`no free port among ${PICKED_PORTS.from}-${PICKED_PORTS.to} after 50 tries`);
}
