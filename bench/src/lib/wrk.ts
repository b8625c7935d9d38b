import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One load run's result: throughput and latency in milliseconds. */
export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Connection errors, timeouts, and answers outside the expected statuses. */
  errors: number;
}

export interface WrkRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationS: number;
  threads?: number;
  /**
   * Each request names one of this many visitors at random (`visitor=` CLASS_VISITOR_PREFIX and a number, added to the query),
   * as a class's pages do, instead of the same request every time. wrk only (h2load sends fixed requests).
   */
  visitors?: number;
}

/** How a class's visitor tokens begin here: the api takes 16 to 64 URL-safe characters. */
export const CLASS_VISITOR_PREFIX = 'bench-class-visitor-';

const scriptDir = mkdtempSync(join(tmpdir(), 'origin-lab-wrk-'));
let scriptCount = 0;

/**
 * Runs wrk (keep-alive HTTP/1.1) with a Lua script that sets the request and prints the summary
 * as JSON, so no human-readable output needs parsing. Non-2xx/3xx answers count as errors.
 */
export function wrk(request: WrkRequest): Promise<LoadResult> {
  const lua = [
    `wrk.method = ${luaString(request.method ?? 'GET')}`,
    ...Object.entries(request.headers ?? {}).map(
      ([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`,
    ),
    request.body === undefined ? '' : `wrk.body = ${luaString(request.body)}`,
    request.visitors === undefined
      ? ''
      : [
          'local path = wrk.path',
          `local visitor = (string.find(path, '?', 1, true) and '&' or '?') .. ${luaString(`visitor=${CLASS_VISITOR_PREFIX}`)}`,
          `request = function() return wrk.format(nil, path .. visitor .. math.random(1, ${request.visitors})) end`,
        ].join('\n'),
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'RESULT {"requests":%d,"durationUs":%d,"socketErrors":%d,"statusErrors":%d,"p50Us":%d,"p99Us":%d}\\n\',',
    '    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50), latency:percentile(99)))',
    'end',
  ].join('\n');
  const script = join(scriptDir, `request-${scriptCount++}.lua`);
  writeFileSync(script, lua);
  const args = [
    '-t',
    String(request.threads ?? 1),
    '-c',
    String(request.connections),
    '-d',
    `${request.durationS}s`,
    '--timeout',
    '5s',
    '-s',
    script,
    request.url,
  ];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { timeout: (request.durationS + 30) * 1000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`wrk failed: ${err.message}\n${stderr}`));
      const line = stdout.split('\n').find((text) => text.startsWith('RESULT '));
      if (!line) return reject(new Error(`wrk printed no result:\n${stdout}\n${stderr}`));
      const raw = JSON.parse(line.slice(7)) as {
        requests: number;
        durationUs: number;
        socketErrors: number;
        statusErrors: number;
        p50Us: number;
        p99Us: number;
      };
      resolve({
        rps: raw.requests / (raw.durationUs / 1e6),
        p50Ms: raw.p50Us / 1000,
        p99Ms: raw.p99Us / 1000,
        requests: raw.requests,
        errors: raw.socketErrors + raw.statusErrors,
      });
    });
  });
}

function luaString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
