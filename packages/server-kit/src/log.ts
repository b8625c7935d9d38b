import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { linesPerTurn } from './lines-per-turn.js';

/** One structured log entry: `msg` says what happened, the other fields the details. */
export type LogEntry = Record<string, unknown>;

/**
 * Where a service writes its log entries. A sink backed by pino carries its logger, so the request
 * log writes to it directly; any other function (a test collecting entries) is given
 * entries through a pino logger of its own, redacted the same way.
 */
export interface LogSink {
  (entry: LogEntry): void;
  readonly logger?: Logger;
}

/**
 * Credentials never reach a log line. Headers are logged in one field, `headers` (the request
 * log's), and pino hands that field to a serializer that replaces these four values. A serializer,
 * not pino's `redact` paths: redact cost each line about 1.2 µs (a third of the line), the
 * serializer a few property reads (docs/performance.md).
 */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'];
const REDACTED = '[redacted]';

/** The headers as logged: the same object when it holds no credential, else a copy with them replaced. */
export function withoutSecrets(headers: unknown): unknown {
  if (typeof headers !== 'object' || headers === null) return headers;
  const named = headers as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const name of SECRET_HEADERS) {
    if (named[name] === undefined) continue;
    copy ??= { ...named };
    copy[name] = REDACTED;
  }
  return copy ?? headers;
}

/** The time of each line: requests logged in the same millisecond share its text. */
let lastTime = { ms: NaN, field: '' };
function isoTimeField(): string {
  const ms = Date.now();
  if (ms !== lastTime.ms) lastTime = { ms, field: `,"time":"${new Date(ms).toISOString()}"` };
  return lastTime.field;
}

const LOGGER_OPTIONS: LoggerOptions = {
  // One service per process: pid and hostname add nothing but bytes.
  base: null,
  timestamp: isoTimeField,
  formatters: { level: (label) => ({ level: label }) },
  serializers: { headers: withoutSecrets },
};

/** A pino logger with the shared options (time, level label, redaction) writing to destination. */
export function createLogger(destination: DestinationStream): Logger {
  return pino(LOGGER_OPTIONS, destination);
}

let stdoutLogger: Logger | undefined;

/**
 * JSON lines when stdout is a pipe or a file: the lines of one turn of the event loop are written
 * together, synchronously (linesPerTurn over pino's synchronous destination), which is what
 * Node's own stdout does on Linux for a pipe, once per turn instead of once per line. pino's
 * asynchronous destination cost the api about 5% more throughput with the request log on
 * (docs/performance.md). Readable lines through pino-pretty when a person watches a terminal: one
 * line per entry, request headers left out (they are in the JSON lines).
 */
function stdoutDestination(): DestinationStream {
  if (process.stdout.isTTY)
    return pretty({
      colorize: true,
      translateTime: 'SYS:HH:MM:ss.l',
      singleLine: true,
      ignore: 'headers',
      destination: 1,
    });
  return linesPerTurn(pino.destination({ dest: 1, sync: true }));
}

function sinkOf(logger: () => Logger): LogSink {
  const sink = (entry: LogEntry) => logger().info(entry);
  // A getter: the destination is opened on first use, not when a module imports this one.
  return Object.defineProperty(sink, 'logger', { get: logger, enumerable: true }) as LogSink;
}

/** The process's log on stdout. */
export const stdoutLog: LogSink = sinkOf(() => (stdoutLogger ??= createLogger(stdoutDestination())));

/** The former name of stdoutLog (a terminal now gets readable lines). */
export const jsonLinesToStdout: LogSink = stdoutLog;

const silentLogger = pino({ level: 'silent' });
export const discardLogs: LogSink = sinkOf(() => silentLogger);

/** The pino logger behind sink: its own, or one that hands every parsed line to the function. */
export function loggerOf(sink: LogSink): Logger {
  return sink.logger ?? createLogger({ write: (line: string) => sink(JSON.parse(line) as LogEntry) });
}
