import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { repoRoot } from '../lib/processes.js';

interface ClassroomReport {
  visitors: number;
  runs: number;
  agreeing: number;
  seconds: number;
  failing: { page: string; id: string; state: string }[];
}

/** Longest a class may take before the run is stopped. */
const CLASS_TIMEOUT_MS = 30 * 60_000;

/**
 * Runs the classroom e2e spec (e2e/specs/classroom.spec.ts) on the embedded stack in Chromium:
 * visitors browser contexts at once, each going through every page and pressing "Run all".
 */
function runClass(visitors: number, log: (line: string) => void): Promise<ClassroomReport> {
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-classroom-'));
  const report = join(dir, 'report.json');
  const child = spawn(
    'node_modules/.bin/playwright',
    ['test', '-c', 'e2e/playwright.config.ts', 'classroom.spec.ts', '--reporter=line'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        E2E_STACKS: 'embedded',
        E2E_BROWSERS: 'chromium',
        CLASSROOM_VISITORS: String(visitors),
        CLASSROOM_ONE_PAGE_AT_A_TIME: '1',
        CLASSROOM_REPORT: report,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGTERM'), CLASS_TIMEOUT_MS);
  return new Promise<ClassroomReport>((resolve, reject) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      try {
        const parsed = JSON.parse(readFileSync(report, 'utf8')) as ClassroomReport;
        log(
          `  ${visitors} visitor(s): ${parsed.agreeing}/${parsed.runs} agree in ${parsed.seconds.toFixed(1)} s (exit ${code})`,
        );
        resolve(parsed);
      } catch {
        reject(new Error(`the classroom run of ${visitors} visitor(s) wrote no report (exit ${code}):\n${output}`));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/**
 * A class on one `npm start`: BENCH_CLASSROOM_VISITORS (24; 4 when quick) students at once,
 * beside one student alone in the same run. Figures: how long the class took, and how many of
 * its experiment runs agreed with the spec (every one should).
 */
export async function classroomBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const alone = await runClass(1, log);
  const whole = await runClass(options.classroomVisitors, log);
  return [
    {
      bench: 'classroom',
      name: `${whole.visitors} visitors, every page, Run all (Chromium, npm start): time`,
      value: whole.seconds,
      unit: 's',
      baseline: { label: 'one visitor alone', value: alone.seconds },
      ratio: whole.seconds / alone.seconds,
    },
    {
      bench: 'classroom',
      name: `${whole.visitors} visitors: experiment runs that agree with the spec`,
      value: whole.agreeing,
      unit: 'runs',
      baseline: { label: 'experiment runs in all', value: whole.runs },
      ratio: whole.agreeing / whole.runs,
      target: '>= 1x',
      met: whole.agreeing === whole.runs,
      ...(whole.failing.length > 0
        ? { note: `not agreeing: ${whole.failing.map((f) => `${f.page}#${f.id} ${f.state}`).join(', ')}` }
        : {}),
    },
  ];
}
