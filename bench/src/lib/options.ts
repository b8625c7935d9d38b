/**
 * What a run measures and how long it takes, from the environment or flags:
 *   BENCH_QUICK=1 or --quick        short runs (seconds, not minutes) for a smoke check
 *   BENCH_ONLY=echo,sse or --only=  which benchmarks to run (default: all)
 *   BENCH_RUNS=3                    repetitions per figure; the median is reported
 *   BENCH_DURATION_S=5              seconds per throughput run
 *   BENCH_ECHO_RUNS=7               runs of the echo benchmark, each on new processes
 *   BENCH_ECHO_DURATION_S=3         seconds per echo run
 *   BENCH_SSE_STREAMS=20000         streams for the SSE capacity run
 *   BENCH_SSE_TICKS=20              ticks per stream (one second apart) in the SSE run
 *   BENCH_CLASSROOM_VISITORS=24     visitors in the classroom run
 *   BENCH_CLASS_SIZES=1,100,...     classes of simulated students in the capacity run, growing
 *   BENCH_CLASS_STEP_S=30           seconds each class size runs after its arrival
 *   BENCH_CLASS_ROUND_S=10          seconds between one student's rounds of page traffic
 *   BENCH_CLASS_REPLICAS=1          api replicas the class capacity runs on (more than 1: on one Redis)
 *   BENCH_JSON=path                 also write the figures as JSON to this file
 *   BENCH_CHECK_IMAGE=name          the check image check-image measures (origin-lab-check; built if missing)
 */
export const BENCH_NAMES = [
  'echo',
  'preflight',
  'proxy',
  'journal',
  'caddy',
  'sse',
  'startup',
  'pages',
  'classroom',
  'class-capacity',
  'replicas',
  'check',
  'check-image',
  'explain',
] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

export interface BenchOptions {
  quick: boolean;
  only: Set<BenchName>;
  runs: number;
  durationS: number;
  /**
   * The echo's own runs: each is a new pair of processes, and processes differ by several percent
   * for as long as they live, so more short runs resolve a ratio better than a few long ones.
   */
  echoRuns: number;
  echoDurationS: number;
  connections: number;
  sseStreams: number;
  sseTicks: number;
  sseRuns: number;
  classroomVisitors: number;
  classSizes: number[];
  classStepS: number;
  classReplicas: number;
  classRoundS: number;
  json?: string;
}

export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const flag = (name: string): string | undefined => {
    const hit = argv.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    if (hit === undefined) return undefined;
    return hit.includes('=') ? hit.slice(hit.indexOf('=') + 1) : 'true';
  };
  const quick = truthy(flag('quick') ?? env.BENCH_QUICK);
  const onlyRaw = flag('only') ?? env.BENCH_ONLY;
  const only = new Set<BenchName>();
  for (const name of (onlyRaw ?? BENCH_NAMES.join(','))
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    if (!(BENCH_NAMES as readonly string[]).includes(name))
      throw new Error(`unknown benchmark "${name}"; choose from ${BENCH_NAMES.join(', ')}`);
    only.add(name as BenchName);
  }
  return {
    quick,
    only,
    runs: int(flag('runs') ?? env.BENCH_RUNS, quick ? 1 : 3, 'BENCH_RUNS'),
    durationS: int(flag('duration') ?? env.BENCH_DURATION_S, quick ? 2 : 5, 'BENCH_DURATION_S'),
    echoRuns: int(flag('echo-runs') ?? env.BENCH_ECHO_RUNS, quick ? 1 : 7, 'BENCH_ECHO_RUNS'),
    echoDurationS: int(flag('echo-duration') ?? env.BENCH_ECHO_DURATION_S, quick ? 2 : 3, 'BENCH_ECHO_DURATION_S'),
    connections: int(flag('connections') ?? env.BENCH_CONNECTIONS, 50, 'BENCH_CONNECTIONS'),
    sseStreams: int(flag('sse-streams') ?? env.BENCH_SSE_STREAMS, quick ? 2_000 : 20_000, 'BENCH_SSE_STREAMS'),
    sseTicks: int(flag('sse-ticks') ?? env.BENCH_SSE_TICKS, quick ? 6 : 20, 'BENCH_SSE_TICKS'),
    sseRuns: int(flag('sse-runs') ?? env.BENCH_SSE_RUNS, quick ? 1 : 3, 'BENCH_SSE_RUNS'),
    classroomVisitors: int(
      flag('classroom-visitors') ?? env.BENCH_CLASSROOM_VISITORS,
      quick ? 4 : 24,
      'BENCH_CLASSROOM_VISITORS',
    ),
    classSizes: sizes(
      flag('class-sizes') ?? env.BENCH_CLASS_SIZES,
      quick ? [1, 20, 50] : [1, 100, 250, 500, 1_000, 1_500, 2_000],
    ),
    classStepS: int(flag('class-step') ?? env.BENCH_CLASS_STEP_S, quick ? 8 : 30, 'BENCH_CLASS_STEP_S'),
    classRoundS: int(flag('class-round') ?? env.BENCH_CLASS_ROUND_S, quick ? 4 : 10, 'BENCH_CLASS_ROUND_S'),
    classReplicas: int(flag('class-replicas') ?? env.BENCH_CLASS_REPLICAS, 1, 'BENCH_CLASS_REPLICAS'),
    json: flag('json') ?? env.BENCH_JSON,
  };
}

/** Growing class sizes, e.g. "1,100,500"; the first is the baseline (one student alone is best). */
function sizes(raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined || raw === '') return fallback;
  const list = raw.split(',').map((item) => Number(item.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1) || list.some((n, i) => i > 0 && n <= list[i - 1]!))
    throw new Error(`BENCH_CLASS_SIZES must be growing whole numbers of at least 1, comma separated; got "${raw}"`);
  return list;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function int(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number of at least 1; got "${raw}"`);
  return value;
}
