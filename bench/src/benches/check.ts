import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { commandExists, repoRoot } from '../lib/processes.js';
import { BENCH_ORIGIN, startApi } from '../lib/servers.js';
import { median } from '../lib/stats.js';
import { skipped } from './throughput.js';

/** Every engine `check` can drive, as --engines names them. */
const ENGINES = ['chromium', 'firefox', 'webkit'];

/** How a check is started: the built program on this machine, or the check image in Docker. */
const ON_HOST = [process.execPath, join(repoRoot, 'packages/cli/bin/origin-lab.js'), 'check'];

/** Seconds one `origin-lab check` run takes, end to end (the program, as a user starts it). */
function timeCheck(args: string[], command: readonly string[] = ON_HOST): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      command[0]!,
      [...command.slice(1), ...args, '--quiet', '--fail-on', 'never'],
      { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) =>
        error
          ? reject(new Error(`check failed: ${stderr.trim().split('\n').at(-1)}`))
          : resolve((performance.now() - started) / 1000),
    );
  });
}

/** The attacker classes the check had before issue 50 added the rest: the baseline of the default run. */
const EARLIER_CLASSES = 'arbitrary,null,prefix,suffix,substring,unescaped-dot,subdomain,http-twin,special-characters';

/**
 * The default matrix of `check` (every cell of one origin of yours, every attacker origin) against
 * one target, the api's /api/posts, in the three engines at once; beside it the same run with the
 * attacker classes of before (what the new classes cost), and --quick (the classes most often found).
 */
export async function checkBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const api = await startApi();
  const runs = options.quick ? 1 : 3;
  const args = [
    `${api.url}/api/posts`,
    '--from',
    BENCH_ORIGIN,
    '--local-network',
    'public',
    '--engines',
    ENGINES.join(','),
  ];
  const all: number[] = [];
  const earlier: number[] = [];
  const quick: number[] = [];
  for (let run = 1; run <= runs; run++) {
    all.push(await timeCheck(args));
    earlier.push(await timeCheck([...args, '--hostile', EARLIER_CLASSES]));
    quick.push(await timeCheck([...args, '--quick']));
    log(
      `[check] run ${run}: every class ${all.at(-1)!.toFixed(1)} s, the classes of before ${earlier.at(-1)!.toFixed(1)} s, --quick ${quick.at(-1)!.toFixed(1)} s`,
    );
  }
  const value = median(all);
  const before = median(earlier);
  return [
    {
      bench: 'check',
      name: 'default matrix, one origin, three engines',
      value,
      unit: 's',
      baseline: { label: 'the attacker classes of before', value: before },
      ratio: value / before,
      target: '≤ 45 s',
      met: value <= 45,
      note: `the median of ${runs} run(s): one origin of yours (6 requests), every attacker origin (3 requests each), Chromium, Firefox and WebKit in parallel`,
    },
    {
      bench: 'check',
      name: '--quick, one origin, three engines',
      value: median(quick),
      unit: 's',
      baseline: { label: 'the default matrix', value },
      ratio: median(quick) / value,
      target: '< 15 s',
      met: median(quick) < 15,
      note: `the median of ${runs} run(s): the six classes most often found (seven origins)`,
    },
  ];
}

/** The check image compose builds (docker-compose.yml's `check`); BENCH_CHECK_IMAGE names another. */
const CHECK_IMAGE = process.env.BENCH_CHECK_IMAGE ?? 'origin-lab-check';

/** The image's size in MB, building it first (bounded) when the engine does not have it. */
function imageSizeMb(log: (line: string) => void): number {
  const size = () =>
    Number(execFileSync('docker', ['image', 'inspect', CHECK_IMAGE, '--format', '{{.Size}}'], { encoding: 'utf8' }));
  try {
    return size() / 1e6;
  } catch {
    log(`[check-image] building ${CHECK_IMAGE} (docker build --target check)`);
    execFileSync('docker', ['build', '--target', 'check', '-t', CHECK_IMAGE, '.'], {
      cwd: repoRoot,
      stdio: 'ignore',
      timeout: 15 * 60_000,
    });
    return size() / 1e6;
  }
}

/**
 * The check image (Dockerfile target `check`) beside the same program on this machine, in turns:
 * the default matrix in three engines, and a cold start (one engine, one origin, a new container).
 * The container shares the host's network, so both reach the same api on loopback.
 */
export async function checkImageBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  if (!commandExists('docker')) return [skipped('check-image', 'docker is not on PATH')];
  try {
    execFileSync('docker', ['version'], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    return [skipped('check-image', 'no Docker engine answers (DOCKER_HOST or the default socket)')];
  }
  const sizeMb = imageSizeMb(log);
  const api = await startApi();
  // Each container under a name of its own, removed after its run: a run past its bound would
  // otherwise leave it running when the client is ended.
  const inImage = async (args: string[]): Promise<number> => {
    const name = `originlab-bench-${process.pid}-${Date.now()}`;
    try {
      return await timeCheck(args, [
        'docker',
        'run',
        '--rm',
        '--name',
        name,
        '--network',
        'host',
        CHECK_IMAGE,
        'check',
      ]);
    } finally {
      execFile('docker', ['rm', '--force', name], { timeout: 30_000 }, () => undefined);
    }
  };
  const args = [`${api.url}/api/posts`, '--from', BENCH_ORIGIN, '--local-network', 'public'];
  const first = [...args, '--hostile', 'none', '--engines', 'chromium'];
  const runs = options.quick ? 1 : 3;
  const times = { host: [] as number[], image: [] as number[], hostFirst: [] as number[], imageFirst: [] as number[] };
  for (let run = 1; run <= runs; run++) {
    times.host.push(await timeCheck(args));
    times.image.push(await inImage(args));
    times.hostFirst.push(await timeCheck(first));
    times.imageFirst.push(await inImage(first));
    log(
      `[check-image] run ${run}: default matrix ${times.image.at(-1)!.toFixed(1)} s in the image, ${times.host.at(-1)!.toFixed(1)} s here; first result ${times.imageFirst.at(-1)!.toFixed(1)} s, ${times.hostFirst.at(-1)!.toFixed(1)} s`,
    );
  }
  const ratios = times.image.map((value, index) => value / times.host[index]!);
  const ratio = median(ratios);
  return [
    {
      bench: 'check-image',
      name: 'default matrix, three engines, in the image',
      value: median(times.image),
      unit: 's',
      baseline: { label: 'the same on this machine', value: median(times.host) },
      ratio,
      range: [Math.min(...ratios), Math.max(...ratios)],
      target: '<= 1.2x this machine',
      met: ratio <= 1.2,
      note: `the median of ${runs} run(s) of each, in turns; docker run --network host`,
    },
    {
      bench: 'check-image',
      name: 'cold start to the first result (one engine, one origin)',
      value: median(times.imageFirst),
      unit: 's',
      baseline: { label: 'the same on this machine', value: median(times.hostFirst) },
      ratio: median(times.imageFirst) / median(times.hostFirst),
      note: 'a new container each run: docker run, Chromium started, one origin of yours, its requests',
    },
    {
      bench: 'check-image',
      name: 'image size',
      value: sizeMb,
      unit: 'MB',
      target: '< 1200 MB',
      met: sizeMb < 1200,
      note: `${CHECK_IMAGE}, as docker image inspect reports it (uncompressed)`,
    },
  ];
}
