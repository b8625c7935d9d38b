import { spawn } from 'node:child_process';
import http from 'node:http';
import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { freePort } from '@origin-lab/server-kit';
import { pollUntil } from '@origin-lab/test-kit';
import { repoRoot } from '../lib/processes.js';
import { median } from '../lib/stats.js';

/** One GET; true on a 2xx answer. */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 1_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

/**
 * Milliseconds from spawning the command to a 2xx answer from every url (polled every 5 ms).
 * The command runs in its own process group, which is stopped afterwards (npm starts node beneath it).
 */
async function timeToAnswers(
  command: string,
  args: string[],
  env: Record<string, string>,
  urls: string[],
): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const pending = new Set(urls);
    await pollUntil(
      `${command} ${args.join(' ')} to answer on ${urls.join(' and ')}`,
      async () => {
        if (child.exitCode !== null)
          throw new Error(`${command} ${args.join(' ')} exited (${child.exitCode}) before answering`);
        for (const url of [...pending]) if (await answers(url)) pending.delete(url);
        return pending.size === 0;
      },
      { timeoutMs: 30_000, intervalMs: 5 },
    );
    return performance.now() - started;
  } finally {
    if (child.exitCode === null && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGTERM');
      const killer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
  }
}

/** `npm start` to the first successful answer on both origins, beside a bare node:http server's start. */
export async function startupBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const runs = options.quick ? 3 : 5;
  const npmStart: number[] = [];
  const launcher: number[] = [];
  const bare: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const port = await freePort();
    const origins = [`http://localhost:${port}/api/echo`, `http://127.0.0.1:${port}/api/echo`];
    const env = { PORT: String(port), LOG_REQUESTS: 'false' };
    npmStart.push(await timeToAnswers('npm', ['start', '--silent'], env, origins));
    launcher.push(await timeToAnswers(process.execPath, ['launcher/dist/start.js'], env, origins));
    bare.push(
      await timeToAnswers(
        process.execPath,
        ['bench/dist/servers/bare-echo.js'],
        { PORT: String(port), HOST: '127.0.0.1' },
        [`http://127.0.0.1:${port}/api/echo`],
      ),
    );
    log(
      `  run ${run}/${runs}: npm start ${Math.round(npmStart.at(-1)!)} ms, node launcher ${Math.round(launcher.at(-1)!)} ms, bare node:http ${Math.round(bare.at(-1)!)} ms`,
    );
  }
  const baseline = { label: 'bare node:http server', value: median(bare) };
  const npmMs = median(npmStart);
  return [
    {
      bench: 'startup',
      name: '`npm start` to 2xx on both origins',
      value: npmMs,
      unit: 'ms',
      baseline,
      ratio: npmMs / baseline.value,
      target: '< 1500 ms',
      met: npmMs < 1_500,
    },
    {
      bench: 'startup',
      name: 'node launcher/dist/start.js (no npm) to 2xx on both origins',
      value: median(launcher),
      unit: 'ms',
      baseline,
      ratio: median(launcher) / baseline.value,
    },
  ];
}
