import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult, WrkRequest } from './wrk.js';
import { percentile } from './stats.js';

/**
 * Runs h2load (nghttp2-client) over HTTP/2 with TLS: `connections` connections, one request in
 * flight on each, like the HTTP/1.1 runs. Latency percentiles come from its per-request log.
 */
export function h2load(request: WrkRequest): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-h2load-'));
  const log = join(dir, 'requests.log');
  const args = [
    '-c',
    String(request.connections),
    '-m',
    '1',
    '-t',
    '1',
    '-D',
    String(request.durationS),
    '--log-file',
    log,
  ];
  for (const [name, value] of Object.entries(request.headers ?? {})) args.push('-H', `${name.toLowerCase()}: ${value}`);
  if (request.body !== undefined) {
    const bodyFile = join(dir, 'body');
    writeFileSync(bodyFile, request.body);
    args.push('-d', bodyFile);
  }
  args.push(request.url);
  return new Promise((resolve, reject) => {
    execFile(
      'h2load',
      args,
      { timeout: (request.durationS + 30) * 1000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        try {
          if (err) return reject(new Error(`h2load failed: ${err.message}\n${stdout}\n${stderr}`));
          if (!/Application protocol: h2/.test(stdout))
            return reject(new Error(`h2load did not negotiate h2:\n${stdout}`));
          const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
          const durationsUs: number[] = [];
          let failed = 0;
          for (const line of lines) {
            const [, status, duration] = line.split('\t');
            durationsUs.push(Number(duration));
            if (!/^[23]/.test(status ?? '')) failed += 1;
          }
          const summary = stdout.match(
            /requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/,
          );
          const finished = stdout.match(/finished in ([\d.]+)(m?s)/);
          const seconds = finished ? Number(finished[1]) / (finished[2] === 'ms' ? 1000 : 1) : request.durationS;
          const done = summary ? Number(summary[3]) : lines.length;
          resolve({
            rps: done / seconds,
            p50Ms: percentile(durationsUs, 50) / 1000,
            p99Ms: percentile(durationsUs, 99) / 1000,
            requests: done,
            errors: failed + (summary ? Number(summary[6]) + Number(summary[7]) : 0),
          });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );
  });
}
