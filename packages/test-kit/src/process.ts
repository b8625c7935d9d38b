import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stopChild, waitForOutput } from '@origin-lab/server-kit';

export interface WatchedProcess {
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** What it wrote to stderr alone. */
  stderr(): string;
  /** The exit code (null after a signal), whenever it comes. */
  exited: Promise<number | null>;
  /**
   * Resolves with the first match of pattern in the output (what was already written counts);
   * rejects when the process exits first or after timeoutMs, with the output so far.
   */
  waitFor(pattern: RegExp, timeoutMs: number, what: string): Promise<RegExpMatchArray>;
  /** The exit code once the process exits; rejects if it is still running after timeoutMs. */
  exitWithin(timeoutMs: number): Promise<number | null>;
  /** SIGTERM, then SIGKILL after graceMs (server-kit's stopChild). */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Spawns a program with its output piped and kept, so a test can wait for what it prints. */
export function spawnWatched(command: string, args: readonly string[], options: SpawnOptions = {}): WatchedProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    // A program that cannot be started (not installed): say so in the output, count it as ended.
    child.once('error', (err) => {
      output += `\n${command}: ${err.message}\n`;
      resolve(null);
    });
  });
  return {
    child,
    output: () => output,
    stderr: () => stderr,
    exited,
    waitFor: (pattern, timeoutMs, what) => {
      const already = output.match(pattern);
      if (already) return Promise.resolve(already);
      if (child.exitCode !== null || child.signalCode !== null)
        return Promise.reject(
          new Error(`${what}: the process exited (${child.exitCode ?? child.signalCode}):\n${output}`),
        );
      return waitForOutput(child, pattern, timeoutMs, what).catch((err: Error) => {
        throw new Error(`${err.message.split('\n')[0]}\n${output}`);
      });
    },
    exitWithin: (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${[command, ...args].join(' ')} did not exit within ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        );
      });
      return Promise.race([exited, late]).finally(() => clearTimeout(timer));
    },
    stop: (graceMs) => stopChild(child, graceMs),
  };
}

export interface StartNodeOptions extends SpawnOptions {
  /** The script's arguments. */
  args?: readonly string[];
  /** What the script prints once it is ready (e.g. its port, captured). */
  ready: RegExp;
  timeoutMs: number;
  /** Names the process in errors. */
  what: string;
}

export interface StartedProcess extends WatchedProcess {
  /** The match of `ready` in the output. */
  ready: RegExpMatchArray;
}

/**
 * Runs a built script (dist/…js) with this Node and waits until it prints `ready`; a missing
 * script says to build first. When the script exits or is not ready in time the process is
 * stopped and the error carries its output.
 */
export async function startNodeScript(script: string, options: StartNodeOptions): Promise<StartedProcess> {
  if (!existsSync(script)) throw new Error(`${script} is missing: run "npm run build" first`);
  const watched = spawnWatched(process.execPath, [script, ...(options.args ?? [])], options);
  try {
    const ready = await watched.waitFor(options.ready, options.timeoutMs, options.what);
    return { ...watched, ready };
  } catch (err) {
    await watched.stop(1_000);
    throw err;
  }
}

/** What a program run to its end said, and how it ended (-1: it was ended, or did not start). */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions extends SpawnOptions {
  /** Ended after this long (SIGTERM), and reported with code -1. */
  timeoutMs: number;
  /** Written to its standard input, which is then closed. */
  input?: string;
}

/** Runs a program to its end within timeoutMs, keeping what it wrote; never rejects. */
export function runBounded(command: string, args: readonly string[], options: RunOptions): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
    // A program may end without reading its input (npx failing early, a usage error): its code
    // and output say so; the write into the closed pipe (EPIPE) is not a second error.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}
