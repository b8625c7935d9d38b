import type { DestinationStream } from 'pino';

/** Where the lines go: anything with a write, such as pino's synchronous SonicBoom destination. */
export interface LineWriter {
  write(text: string): unknown;
}

/** A pino destination that writes the lines of one turn together; flush() writes what is kept now. */
export interface LinesPerTurn extends DestinationStream {
  flush(): void;
}

/**
 * Keeps the lines logged during one turn of the event loop and hands them to `writer` as one
 * string when the turn ends (setImmediate), so a busy server makes one write per turn instead of
 * one per line. Measured on the echo with the request log on (docs/performance.md): pino's
 * asynchronous destination spent about 3 µs a line on the main thread (it measures the whole
 * pending buffer on every line) and its writes went through libuv's thread pool, which the load
 * generator needed on 2 cores; one synchronous write per turn of about 50 lines costs a fraction
 * of that. Lines kept when the process exits are written then, synchronously, so process.exit()
 * loses nothing, and so are lines logged after that by later 'exit' listeners (no turn comes
 * again); a SIGKILL loses at most the current turn's lines.
 */
export function linesPerTurn(writer: LineWriter): LinesPerTurn {
  let pending = '';
  let scheduled = false;
  let exiting = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    writer.write(text);
  };
  // One destination per process (the stdout log): an 'exit' listener each is not a leak.
  process.on('exit', () => {
    exiting = true;
    flush();
  });
  return {
    write(line: string) {
      if (exiting) {
        writer.write(line);
        return;
      }
      pending += line;
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
    flush,
  };
}
