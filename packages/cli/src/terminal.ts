/**
 * What the commands write to people: colour only on a terminal (NO_COLOR and FORCE_COLOR
 * respected, --color overrides), a progress line that rewrites itself on a terminal and prints a
 * line per step elsewhere, and one way to fail with a message and an exit code.
 */
import type { WriteStream } from 'node:tty';

export type ColorChoice = 'auto' | 'always' | 'never';

/** Where a command writes, and the version it reports. */
export interface CommandIO {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  version: string;
}

/**
 * The exit codes, as `--help` documents them. A reader that stops reading the output (`| head`)
 * ends the run with 141, the code of a command the shell saw stopped by SIGPIPE, so that a gate
 * behind a pipe never passes on output nobody read.
 */
export const EXIT = { ok: 0, findings: 1, usage: 2, incomplete: 3, outputClosed: 141 } as const;

/**
 * Writes to a stream only as fast as its reader takes it: each write waits for 'drain' once the
 * stream's buffer is full, so a long report read slowly (a pipe) is never held whole in memory.
 */
export function pacedWriter(out: NodeJS.WritableStream): (chunk: string) => Promise<void> {
  return (chunk) =>
    out.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => void out.once('drain', resolve));
}

/** A failure the command reports in one line and exits with: never a stack trace. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;
export type Style = keyof typeof CODES;

export interface Paint {
  (style: Style, text: string): string;
  readonly enabled: boolean;
}

/** Whether to colour what goes to stream. */
export function colorEnabled(choice: ColorChoice, stream: NodeJS.WriteStream, env = process.env): boolean {
  if (choice !== 'auto') return choice === 'always';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return Boolean((stream as WriteStream).isTTY) && env.TERM !== 'dumb';
}

export function painter(enabled: boolean): Paint {
  const paint = (style: Style, text: string) =>
    enabled ? `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : text;
  return Object.assign(paint, { enabled });
}

/**
 * Progress on stderr: on a terminal one line rewritten in place (cleared at the end), otherwise a
 * plain line each time the step changes (what a CI log can read). quiet writes nothing.
 */
export class Progress {
  /** Off a terminal, each step is written once (engines run at once, their steps interleave). */
  private readonly written = new Set<string>();
  private readonly tty: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly quiet: boolean,
  ) {
    this.tty = Boolean((stream as WriteStream).isTTY);
  }

  /**
   * step: what is being done, written (off a terminal) when it changes; detail: the item within
   * it, shown only on a terminal. total 0: a count with no known end.
   */
  update(done: number, total: number, step: string, detail?: string): void {
    if (this.quiet) return;
    const count = total > 0 ? `[${done}/${total}]` : `[${done}]`;
    if (this.tty) {
      const width = (this.stream as WriteStream).columns ?? 80;
      const line = `${count} ${step}${detail ? `: ${detail}` : ''}`;
      this.stream.write(`\r\u001b[2K${line.slice(0, width - 1)}`);
    } else if (!this.written.has(step)) {
      this.written.add(step);
      this.stream.write(`${count} ${step}\n`);
    }
  }

  /** A line that stays (a warning, a note), above the progress line. */
  note(text: string): void {
    if (this.quiet) return;
    if (this.tty) this.stream.write('\r\u001b[2K');
    this.stream.write(`${text}\n`);
  }

  done(): void {
    if (!this.quiet && this.tty) this.stream.write('\r\u001b[2K');
  }
}
