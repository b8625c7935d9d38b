/** One JSON object per line on stdout: easy to read, easy to grep, easy for tests to parse. */
export type LogSink = (entry: Record<string, unknown>) => void;

export const jsonLinesToStdout: LogSink = (entry) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
};

export const discardLogs: LogSink = () => {};

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Copies headers for a log line with credential values replaced, so no secret reaches a log. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const copy: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) copy[name] = SECRET_HEADERS.has(name) ? '[redacted]' : value;
  return copy;
}
