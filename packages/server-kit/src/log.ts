/** One JSON object per line on stdout: easy to read, easy to grep, easy for tests to parse. */
export type LogSink = (entry: Record<string, unknown>) => void;

/**
 * Lines wait for the end of the current turn of the event loop and are written together: stdout
 * to a pipe or file is a synchronous write per call on Linux, and one per request halved the api's
 * throughput with the request log on. What is pending is written on exit too.
 */
let pendingLines: string[] = [];
let flushScheduled = false;

function flushLines(): void {
  flushScheduled = false;
  if (pendingLines.length === 0) return;
  const text = pendingLines.join('');
  pendingLines = [];
  process.stdout.write(text);
}

process.on('exit', flushLines);

export const jsonLinesToStdout: LogSink = (entry) => {
  pendingLines.push(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushLines);
  }
};

export const discardLogs: LogSink = () => {};

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Copies headers for a log line with credential values replaced, so no secret reaches a log. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const copy: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) copy[name] = SECRET_HEADERS.has(name) ? '[redacted]' : value;
  return copy;
}
