import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stopChild, waitForOutput } from '@origin-lab/server-kit';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface Child {
  process: ChildProcess;
  pid: number;
  /** Everything the child wrote so far (stdout and stderr), for error messages. */
  output(): string;
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Child>();

/** Starts a child and keeps its output; every child started here is stopped on exit. */
export function startChild(command: string, args: string[], options: SpawnOptions = {}): Child {
  const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let seen = '';
  const keep = (chunk: Buffer) => {
    seen += chunk.toString();
    if (seen.length > 64_000) seen = seen.slice(-32_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const handle: Child = {
    process: child,
    pid: child.pid ?? -1,
    output: () => seen,
    stop: (graceMs = 3_000) => {
      running.delete(handle);
      return stopChild(child, graceMs);
    },
  };
  running.add(handle);
  return handle;
}

export async function stopAllChildren(): Promise<void> {
  await Promise.allSettled([...running].map((child) => child.stop(1_000)));
}

/** A node server that prints its port: the api (JSON log line) or one of the bench's own servers. */
export async function startNodeServer(
  script: string,
  env: Record<string, string>,
  what: string,
  nodeArgs: string[] = [],
): Promise<{ child: Child; port: number }> {
  const child = startChild(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
  });
  const match = await waitForOutput(child.process, /"port":(\d+)|listening on (\d+)/, 15_000, what);
  return { child, port: Number(match[1] ?? match[2]) };
}

/** Resident memory of a process in bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = status.match(/VmRSS:\s+(\d+) kB/);
  return match ? Number(match[1]) * 1024 : NaN;
}

/** CPU time (user + system) a process has used so far, in milliseconds (Linux /proc). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

export { sleep } from '@origin-lab/test-kit';

export function commandExists(command: string): boolean {
  const paths = (process.env.PATH ?? '').split(':');
  for (const dir of paths) {
    try {
      accessSync(`${dir}/${command}`, constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}
