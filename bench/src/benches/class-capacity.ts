import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@origin-lab/server-kit';
import { connect, type Connection } from '../class-load/h2.js';
import { Student, type StudentSettings } from '../class-load/student.js';
import { Tally } from '../class-load/tally.js';
import type { BenchOptions } from '../lib/options.js';
import { commandExists, cpuMs, rssBytes } from '../lib/processes.js';
import { formatNumber, type Figure } from '../lib/report.js';
import { addressesOf, startApi, startApiReplicas, startUpstreamMock } from '../lib/servers.js';
import { startReplicaFront } from '@origin-lab/launcher/caddy';
import { startRedis } from '@origin-lab/test-kit';

/** A class passes with every answer right and p99 under this. */
const P99_GOAL_MS = 250;
const STUDENTS_GOAL = 1_000;
const SETTINGS: StudentSettings = { timeoutMs: 10_000, slowMs: 300, streamTicks: 3 };

interface ClassRun {
  students: number;
  answers: number;
  wrong: number;
  examples: string[];
  p50: number;
  p99: number;
  /** Share of one core over the steady part (100 = one core busy). */
  apiCpu: number;
  apiRssMiB: number;
  caddyCpu: number;
  caddyRssMiB: number;
  generatorCpu: number;
}

const passes = (run: ClassRun) => run.wrong === 0 && run.p99 < P99_GOAL_MS;

/**
 * N students through the real front: the repository's Caddyfile in Debian's Caddy (TLS, HTTP/2,
 * a.localhost and b.localhost), the api as production runs it with the visitor journal on, and
 * the upstream-mock behind the proxy; all fresh for each N. Students arrive spread over one
 * round, then each does a round of page traffic every BENCH_CLASS_ROUND_S for BENCH_CLASS_STEP_S.
 */
async function runClass(students: number, options: BenchOptions, log: (line: string) => void): Promise<ClassRun> {
  const upstream = await startUpstreamMock();
  const [httpsPort, httpPort] = await Promise.all([freePort(), freePort()]);
  const origins = [`https://a.localhost:${httpsPort}`, `https://b.localhost:${httpsPort}`] as const;
  // More than one replica: all on one Redis (appendfsync always, as in compose).
  const redis = options.classReplicas > 1 ? await startRedis({ persistence: true }) : null;
  const settings = {
    UPSTREAM_URL: upstream.url,
    ALLOWED_ORIGINS: origins.join(','),
    // Every student is a visitor; the default (1,000) would drop the earliest journals of a larger class.
    JOURNAL_VISITORS: String(Math.max(1_000, students * 2)),
  };
  const replicas = redis
    ? await startApiReplicas(options.classReplicas, redis.url, settings)
    : [await startApi(settings)];
  const caddy = await startReplicaFront(addressesOf(replicas), { httpsPort, httpPort });
  const stopAll = async () => {
    await caddy.stop();
    await Promise.all(replicas.map((replica) => replica.child.stop()));
    await redis?.stop();
    await upstream.child.stop();
  };
  try {
    const ca = readFileSync(caddy.caCert);
    const tally = new Tally();
    const roundMs = options.classRoundS * 1_000;
    const started = Date.now();
    const steadyFrom = started + roundMs;
    const until = steadyFrom + options.classStepS * 1_000;

    const attend = async (index: number) => {
      const arrival = started + (index / students) * roundMs;
      await sleep(Math.max(0, arrival - Date.now()));
      let connections: Connection[];
      try {
        connections = await Promise.all(origins.map((origin) => connect(origin, ca, SETTINGS.timeoutMs)));
      } catch (err) {
        tally.record('connecting over TLS and HTTP/2', (err as Error).message);
        return;
      }
      const token = `class-student-${String(index).padStart(6, '0')}`;
      const student = new Student(token, connections[0]!, connections[1]!, tally, SETTINGS);
      student.openJournal();
      for (let at = arrival; at < until; at += roundMs) {
        await sleep(Math.max(0, at - Date.now()));
        await student.round();
      }
      await student.finish(5_000);
      for (const { session } of connections) session.close();
    };

    // CPU over the steady part only: the arrival (TLS handshakes) is in the latencies, not here.
    // The api's figures are the sum over its replicas (and Redis, when there is one).
    const apiPids = [...replicas.map((replica) => replica.child.pid), ...(redis ? [redis.pid] : [])];
    const apiCpuMs = () => apiPids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const apiRss = () => apiPids.reduce((sum, pid) => sum + rssBytes(pid), 0);
    const peakRss = { api: 0, caddy: 0 };
    let cpuAtStart = { api: 0, caddy: 0, generator: 0 };
    const sampler = setInterval(() => {
      peakRss.api = Math.max(peakRss.api, apiRss());
      peakRss.caddy = Math.max(peakRss.caddy, rssBytes(caddy.pid));
    }, 1_000);
    const startSteady = setTimeout(
      () => (cpuAtStart = { api: apiCpuMs(), caddy: cpuMs(caddy.pid), generator: generatorCpuMs() }),
      steadyFrom - Date.now(),
    );
    const progress = setInterval(
      () => log(`    ${studentsOf(students)}: ${tally.answers} answers, ${tally.wrong} wrong so far`),
      15_000,
    );
    let cpu = { api: 0, caddy: 0, generator: 0 };
    try {
      const classDone = Promise.all(Array.from({ length: students }, (_, index) => attend(index)));
      await sleep(Math.max(0, until - Date.now()));
      const steadyMs = until - steadyFrom;
      const share = (now: number, before: number) => ((now - before) / steadyMs) * 100;
      cpu = {
        api: share(apiCpuMs(), cpuAtStart.api),
        caddy: share(cpuMs(caddy.pid), cpuAtStart.caddy),
        generator: share(generatorCpuMs(), cpuAtStart.generator),
      };
      await classDone;
    } finally {
      clearInterval(sampler);
      clearInterval(progress);
      clearTimeout(startSteady);
    }
    const { p50, p99 } = tally.percentiles();
    const run: ClassRun = {
      students,
      answers: tally.answers,
      wrong: tally.wrong,
      examples: tally.examples,
      p50,
      p99,
      apiCpu: cpu.api,
      apiRssMiB: peakRss.api / 2 ** 20,
      caddyCpu: cpu.caddy,
      caddyRssMiB: peakRss.caddy / 2 ** 20,
      generatorCpu: cpu.generator,
    };
    log(`  ${describe(run)}`);
    for (const example of run.examples) log(`    wrong: ${example}`);
    return run;
  } finally {
    await stopAll();
  }
}

const replicasWords = (options: BenchOptions) =>
  options.classReplicas > 1 ? `, ${options.classReplicas} api replicas on Redis` : '';

function generatorCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

const studentsOf = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'student' : 'students'}`;

function describe(run: ClassRun): string {
  const percent = (value: number) => `${value.toFixed(0)}%`;
  return (
    `${studentsOf(run.students)}: ${run.answers} answers, ${run.wrong} wrong; ` +
    `p50 ${formatNumber(run.p50, 'ms')}, p99 ${formatNumber(run.p99, 'ms')}; ` +
    `api ${percent(run.apiCpu)} CPU, ${formatNumber(run.apiRssMiB, 'MiB')}; ` +
    `Caddy ${percent(run.caddyCpu)} CPU, ${formatNumber(run.caddyRssMiB, 'MiB')}; ` +
    `load generator ${percent(run.generatorCpu)} CPU`
  );
}

/**
 * The classroom's capacity on this machine: growing classes (BENCH_CLASS_SIZES), each checked
 * answer by answer against the spec, until one fails; the largest class with no wrong answer and
 * p99 under 250 ms is the figure. The first size (one student) is the baseline.
 */
export async function classCapacityBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  if (!commandExists('caddy'))
    return [
      {
        bench: 'class-capacity',
        name: 'largest class',
        value: NaN,
        unit: 'students',
        note: 'skipped: caddy is not installed (apt-get install caddy)',
      },
    ];
  const runs: ClassRun[] = [];
  for (const students of options.classSizes) {
    log(
      `  a class of ${studentsOf(students)}: arriving over ${options.classRoundS} s, then ${options.classStepS} s of rounds`,
    );
    const run = await runClass(students, options, log);
    runs.push(run);
    // Larger classes only fail harder; the figure is the last size that passed.
    if (runs.length > 1 && !passes(run)) break;
  }
  const [alone] = runs;
  const figures: Figure[] = runs.map((run) => ({
    bench: 'class-capacity',
    name: `${studentsOf(run.students)}: p99 of every answer, through Caddy (TLS, HTTP/2), journal on${replicasWords(options)}`,
    value: run.p99,
    unit: 'ms',
    baseline: { label: 'one student alone', value: alone!.p99 },
    ratio: run.p99 / alone!.p99,
    target: `< ${P99_GOAL_MS} ms, no wrong answer`,
    met: passes(run),
    note: describe(run) + (run.examples.length > 0 ? `; e.g. ${run.examples[0]}` : ''),
  }));
  const largest = runs.filter(passes).at(-1)?.students ?? 0;
  const tried = runs.at(-1)!.students;
  figures.push({
    bench: 'class-capacity',
    name: `largest class with every answer right and p99 < 250 ms${replicasWords(options)}`,
    value: largest,
    unit: 'students',
    target: `>= ${STUDENTS_GOAL.toLocaleString('en-US')}`,
    met: largest >= STUDENTS_GOAL,
    note:
      largest === tried
        ? `every size tried passed; the largest tried was ${studentsOf(tried)} (BENCH_CLASS_SIZES tries more)`
        : `${studentsOf(tried)} did not pass`,
  });
  return figures;
}
