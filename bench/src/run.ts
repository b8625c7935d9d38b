/**
 * `npm run bench`: starts what it measures on free loopback ports, runs each benchmark, and
 * prints one table of figures, each beside a baseline measured in the same run. Not a test:
 * nothing here asserts a timing; a target not met is reported, not failed.
 * Options: see lib/options.ts (BENCH_QUICK=1, BENCH_ONLY=echo,sse, BENCH_RUNS, ...).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { readOptions, type BenchName, type BenchOptions } from './lib/options.js';
import { renderNotes, renderTable, type Figure } from './lib/report.js';
import { stopAllChildren } from './lib/processes.js';
import { caddyBench, echoBench, preflightBench, proxyBench } from './benches/throughput.js';
import { sseBench } from './benches/sse.js';
import { startupBench } from './benches/startup.js';
import { pageWeightBench } from './benches/page-weight.js';
import { journalBench } from './benches/journal.js';
import { classroomBench } from './benches/classroom.js';
import { classCapacityBench } from './benches/class-capacity.js';
import { replicasBench } from './benches/replicas.js';
import { checkBench, checkImageBench } from './benches/check.js';
import { explainBench } from './benches/explain.js';

type Bench = (options: BenchOptions, log: (line: string) => void) => Promise<Figure[]>;

const BENCHES: Record<BenchName, Bench> = {
  echo: echoBench,
  preflight: preflightBench,
  proxy: proxyBench,
  caddy: caddyBench,
  sse: sseBench,
  startup: startupBench,
  pages: pageWeightBench,
  journal: journalBench,
  classroom: classroomBench,
  'class-capacity': classCapacityBench,
  replicas: replicasBench,
  check: checkBench,
  'check-image': checkImageBench,
  explain: explainBench,
};

export function machine(): Record<string, string | number> {
  return {
    date: new Date().toISOString(),
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: os.release(),
    loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const started = Date.now();
  const loadBefore = Math.round(os.loadavg()[0]! * 100) / 100;
  const figures: Figure[] = [];
  for (const name of options.only) {
    log(`[bench] ${name}${options.quick ? ' (quick)' : ''}`);
    const benchStarted = Date.now();
    try {
      figures.push(...(await BENCHES[name](options, log)));
    } catch (err) {
      figures.push({
        bench: name,
        name: 'failed',
        value: NaN,
        unit: '',
        note: (err as Error).message.split('\n').slice(0, 3).join(' '),
      });
    } finally {
      await stopAllChildren();
    }
    log(`[bench] ${name} took ${Math.round((Date.now() - benchStarted) / 1000)} s`);
  }
  const host = machine();
  host.loadAverage1mBefore = loadBefore;
  const header =
    `Origin Lab benchmarks, ${host.date}: ${host.cpus} CPUs (${host.cpuModel}), ${host.memoryGiB} GiB, Node ${host.node}, ` +
    `load average ${loadBefore} before and ${host.loadAverage1m} after (other work on the machine shows here); ` +
    `${options.runs} run(s) of ${options.durationS} s per throughput figure (echo: ${options.echoRuns} of ${options.echoDurationS} s), ${options.connections} keep-alive connections, medians; total ${Math.round((Date.now() - started) / 1000)} s`;
  process.stdout.write(`\n${header}\n\n${renderTable(figures)}\n`);
  const notes = renderNotes(figures);
  if (notes) process.stdout.write(`\nNotes:\n${notes}\n`);
  if (options.json) {
    writeFileSync(
      options.json,
      JSON.stringify({ machine: host, options: { ...options, only: [...options.only] }, figures }, null, 2),
    );
    process.stdout.write(`\nFigures written to ${options.json}\n`);
  }
}

// Interrupted (Ctrl-C, or a CI job's SIGTERM): stop every server the run started before leaving.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    void stopAllChildren().then(() => process.exit(code));
  });
}

main().catch(async (err: unknown) => {
  await stopAllChildren();
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
