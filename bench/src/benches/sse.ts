import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { cpuMs, rssBytes, sleep, startNodeServer, type Child } from '../lib/processes.js';
import { startApi } from '../lib/servers.js';
import { max, median, percentile } from '../lib/stats.js';

const CLIENT_SCRIPT = fileURLToPath(new URL('../sse-client.js', import.meta.url));
/** Sockets per client process: well under the 20,000 open-files limit of one process. */
const SOCKETS_PER_CLIENT = 10_000;
/** File descriptors a server needs besides its streams (stdio, epoll, listener, pipes, V8 and libuv internals). */
const SERVER_FD_RESERVE = 100;
const INTERVAL_MS = 1_000;

interface ClientResult {
  streams: number;
  opened: number;
  held: number;
  failed: number;
  ticksReceived: number;
  ticksExpected: number;
  errors: Record<string, number>;
  lateness: number[];
  arrivedAt: number[];
}

interface RunResult {
  streams: number;
  held: number;
  ticksMissing: number;
  p50: number;
  p99: number;
  max: number;
  /** Lateness of the ticks that arrived once every stream was open (no connection being accepted). */
  steadyP99: number;
  steadyMax: number;
  rampSeconds: number;
  rssPerStreamBytes: number;
  cpuPercent: number;
  errors: Record<string, number>;
}

/**
 * The open-files limits of this process, which the servers and clients it starts inherit.
 * `npm run bench` raises the soft limit to the hard one before starting node; a process cannot
 * go past the hard limit (20,000 on the build machines).
 */
function openFilesLimits(): { soft: number; hard: number } {
  const match = readFileSync('/proc/self/limits', 'utf8').match(/Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/);
  const value = (raw: string | undefined) => (raw === undefined || raw === 'unlimited' ? 1_000_000 : Number(raw));
  return { soft: value(match?.[1]), hard: value(match?.[2]) };
}

/** One capacity run against one server: N streams from client processes, RSS and CPU of the server at the plateau. */
async function capacityRun(
  server: { child: Child; port: number },
  streams: number,
  ticks: number,
  log: (line: string) => void,
): Promise<RunResult> {
  // Idle footprint after a first stream, so lazy start-up work is not counted per stream.
  await fetch(`http://127.0.0.1:${server.port}/api/stream?count=1`).then((res) => res.text());
  await sleep(300);
  const idleRss = rssBytes(server.child.pid);

  const clientCount = Math.ceil(streams / SOCKETS_PER_CLIENT);
  const clients: ChildProcess[] = [];
  const opens: Promise<void>[] = [];
  const results: Promise<ClientResult>[] = [];
  const rampStarted = performance.now();
  for (let index = 0; index < clientCount; index++) {
    const share = Math.floor(streams / clientCount) + (index < streams % clientCount ? 1 : 0);
    const job = { port: server.port, streams: share, ticks, intervalMs: INTERVAL_MS, batch: 50 };
    const client = fork(CLIENT_SCRIPT, [], {
      env: { ...process.env, SSE_CLIENT_JOB: JSON.stringify(job) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    clients.push(client);
    opens.push(
      new Promise((resolve) =>
        client.on('message', (message: { type: string }) => message.type === 'open' && resolve()),
      ),
    );
    results.push(
      new Promise((resolve, reject) => {
        client.on(
          'message',
          (message: { type: string } & ClientResult) => message.type === 'result' && resolve(message),
        );
        client.once('exit', (code) => reject(new Error(`an SSE client process exited with ${code} before reporting`)));
      }),
    );
  }
  let peakRss = idleRss;
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, rssBytes(server.child.pid));
    } catch {
      // the server is gone; the run reports what it saw
    }
  }, 200);
  const deadline = (ticks + 60) * 1000;
  const timeout = <T>(promise: Promise<T>, what: string) =>
    Promise.race([
      promise,
      sleep(deadline).then(() =>
        Promise.reject(new Error(`SSE run: ${what} did not happen within ${deadline / 1000} s`)),
      ),
    ]);
  try {
    await timeout(Promise.all(opens), 'every stream opening');
    const allOpenAt = performance.timeOrigin + performance.now();
    const rampSeconds = (performance.now() - rampStarted) / 1000;
    // The plateau: every stream open, none finished yet (the first opened finish ticks-1 s after they started).
    const plateauMs = Math.max(1_000, (ticks - 2 - rampSeconds) * 1000);
    const cpuBefore = cpuMs(server.child.pid);
    const wallBefore = performance.now();
    const rssOpen = rssBytes(server.child.pid);
    await sleep(plateauMs);
    const cpuPercent = ((cpuMs(server.child.pid) - cpuBefore) / (performance.now() - wallBefore)) * 100;
    const rssPlateau = Math.max(rssOpen, rssBytes(server.child.pid));
    const reports = await timeout(Promise.all(results), 'every stream ending');
    const lateness = reports.flatMap((report) => report.lateness);
    const steady = reports.flatMap((report) =>
      report.lateness.filter((_, index) => report.arrivedAt[index]! > allOpenAt),
    );
    const held = reports.reduce((sum, report) => sum + report.held, 0);
    const errors: Record<string, number> = {};
    for (const report of reports)
      for (const [code, count] of Object.entries(report.errors)) errors[code] = (errors[code] ?? 0) + count;
    log(
      `  ${streams} streams: ramp ${rampSeconds.toFixed(1)} s, held ${held}, RSS ${Math.round(idleRss / 2 ** 20)} -> ${Math.round(rssPlateau / 2 ** 20)} MiB (peak ${Math.round(peakRss / 2 ** 20)}), CPU ${cpuPercent.toFixed(0)}%`,
    );
    return {
      streams,
      held,
      ticksMissing: reports.reduce((sum, report) => sum + report.ticksExpected - report.ticksReceived, 0),
      p50: percentile(lateness, 50),
      p99: percentile(lateness, 99),
      max: max(lateness),
      steadyP99: percentile(steady, 99),
      steadyMax: max(steady),
      rampSeconds,
      rssPerStreamBytes: (rssPlateau - idleRss) / streams,
      cpuPercent,
      errors,
    };
  } finally {
    clearInterval(sampler);
    for (const client of clients) if (client.exitCode === null) client.kill('SIGKILL');
  }
}

/**
 * SSE capacity: N concurrent /api/stream connections at the real one-second pace, on one api
 * process, beside a bare node:http SSE server with the same records in the same run.
 */
export async function sseBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const { soft: limit, hard } = openFilesLimits();
  const cap = limit - SERVER_FD_RESERVE;
  const streams = Math.min(options.sseStreams, cap);
  const ticks = options.sseTicks;
  const capped = streams < options.sseStreams;
  const clientProcesses = Math.ceil(streams / SOCKETS_PER_CLIENT);
  log(
    `  open-files limit ${limit} per process (hard limit ${hard}${limit < hard ? '; run through npm run bench to raise it' : ', cannot be raised further'}): ${streams} streams` +
      `${capped ? ` instead of ${options.sseStreams}, the server needs ${SERVER_FD_RESERVE} descriptors besides its sockets` : ''}; ` +
      `clients spread over ${clientProcesses} process(es) of at most ${SOCKETS_PER_CLIENT} sockets`,
  );
  const api: RunResult[] = [];
  const bare: RunResult[] = [];
  for (let run = 1; run <= options.sseRuns; run++) {
    for (const [label, into] of [
      ['bare', bare],
      ['api', api],
    ] as const) {
      log(`  run ${run}/${options.sseRuns} ${label}`);
      const server =
        label === 'api'
          ? await startApi({ STREAM_COUNT_MAX: String(Math.max(ticks, 120)) })
          : await startNodeServer('bench/dist/servers/bare-sse.js', {}, 'the bare SSE server');
      try {
        into.push(await capacityRun(server, streams, ticks, log));
      } finally {
        await server.child.stop();
      }
    }
  }
  const mid = (results: RunResult[], pick: (result: RunResult) => number) => median(results.map(pick));
  const ratio = (pick: (result: RunResult) => number) =>
    median(api.map((result, run) => pick(result) / pick(bare[run]!)));
  const baseline = (pick: (result: RunResult) => number) => ({ label: 'bare node:http SSE', value: mid(bare, pick) });
  /** A figure of the api's runs beside the bare server's: the median of pick, its baseline and ratio. */
  const beside = (
    name: string,
    unit: string,
    pick: (result: RunResult) => number,
    more: Partial<Figure> = {},
  ): Figure => ({
    bench: 'sse',
    name,
    value: mid(api, pick),
    unit,
    baseline: baseline(pick),
    ratio: ratio(pick),
    ...more,
  });
  const held = mid(api, (result) => result.held);
  const p99 = mid(api, (result) => result.p99);
  const steadyP99 = mid(api, (result) => result.steadyP99);
  const missing = mid(api, (result) => result.ticksMissing);
  const perStream = mid(api, (result) => result.rssPerStreamBytes) / 1024;
  const rssRatio = ratio((result) => result.rssPerStreamBytes);
  const steadyP99Ratio = ratio((result) => result.steadyP99);
  const errors = api.flatMap((result) => Object.entries(result.errors).map(([code, count]) => `${code} x${count}`));
  const fdNote = `open-files limit ${limit} per process (hard limit ${hard}): one process cannot hold 20,000 sockets plus its own descriptors; measured at ${streams}, clients in ${clientProcesses} other process(es)`;
  return [
    beside(`streams held (of ${streams} opened, ${ticks} ticks each)`, '', (result) => result.held, {
      target: '20,000 on one process',
      met: held >= 20_000,
      note:
        held >= 20_000
          ? undefined
          : (capped || options.sseStreams >= 20_000
              ? fdNote
              : `${options.sseStreams} streams asked for (BENCH_SSE_STREAMS); the target is about 20,000`) +
            (errors.length ? `; client errors: ${errors.join(', ')}` : ''),
    }),
    {
      bench: 'sse',
      name: 'ticks missing',
      value: missing,
      unit: '',
      baseline: baseline((result) => result.ticksMissing),
      target: '0',
      met: missing === 0,
    },
    beside('tick lateness p50, all ticks', 'ms', (result) => result.p50),
    beside('tick lateness p99, all ticks', 'ms', (result) => result.p99, {
      target: '< 50 ms',
      met: p99 < 50,
      note: `all ticks include those sent while the remaining connections were still being accepted (ramp-up took ${mid(api, (result) => result.rampSeconds).toFixed(1)} s for the api, ${mid(bare, (result) => result.rampSeconds).toFixed(1)} s for the baseline)`,
    }),
    beside('tick lateness max, all ticks', 'ms', (result) => result.max),
    beside('tick lateness p99, every stream open', 'ms', (result) => result.steadyP99, {
      target: '< 50 ms and <= 1.2x of bare',
      met: steadyP99 < 50 && steadyP99Ratio <= 1.2,
    }),
    beside('tick lateness max, every stream open', 'ms', (result) => result.steadyMax),
    {
      bench: 'sse',
      name: 'api RSS per open stream',
      value: perStream,
      unit: 'KiB',
      baseline: { label: 'bare node:http SSE', value: mid(bare, (result) => result.rssPerStreamBytes) / 1024 },
      ratio: rssRatio,
      target: '<= 1.1x of bare',
      met: rssRatio <= 1.1,
      note:
        `measured as (RSS with every stream open - idle RSS) / streams; the bare node:http baseline costs ` +
        `${(mid(bare, (result) => result.rssPerStreamBytes) / 1024).toFixed(1)} KiB per stream (socket, parser, request and response objects, ` +
        `V8 heap growth); most of the api's extra is Koa's own onFinished(res, onerror) per request, which keeps its listeners and ` +
        `the whole context as long as the stream lasts (docs/performance.md, "What stands in the way")`,
    },
    beside('api CPU while all streams tick', '% of a core', (result) => result.cpuPercent),
  ];
}
