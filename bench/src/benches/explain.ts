import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { repoRoot } from '../lib/processes.js';
import { median } from '../lib/stats.js';

/**
 * `origin-lab explain` of a HAR near its 50 MB bound: a page that called one API 95,000 times,
 * every call preflighted and refused (190,000 entries). Beside it, the floor of any reader of that file: Node
 * reading and parsing the same JSON. And the same explain of a quarter of the HAR: a reader that
 * grows with the HAR takes about a quarter of the time (one that compared every exchange with
 * every other took sixteen times less, and minutes on the whole).
 */
const ENTRIES = 190_000;
const PROGRAM = 'packages/cli/bin/origin-lab.js';
/** Each child says its peak memory (max RSS, KiB) on standard error as it exits. */
const REPORT_RSS =
  'data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss "+process.resourceUsage().maxRSS+"\\n"))';

function har(entries: number): string {
  // A query, as most calls to an API carry: its values are hidden in every explanation.
  const url = 'https://api.example.com/orders?page=2';
  const origin = { name: 'Origin', value: 'https://app.example.com' };
  const preflight = {
    request: {
      method: 'OPTIONS',
      url,
      headers: [origin, { name: 'Access-Control-Request-Method', value: 'PUT' }],
    },
    response: { status: 204, headers: [{ name: 'Access-Control-Allow-Origin', value: 'https://app.example.com' }] },
  };
  const put = {
    request: { method: 'PUT', url, headers: [origin] },
    response: { status: 0, headers: [], _error: 'net::ERR_FAILED' },
  };
  const list = Array.from({ length: entries }, (_, index) => (index % 2 === 0 ? preflight : put));
  return JSON.stringify({ log: { version: '1.2', entries: list } });
}

/** Seconds and peak MB of one run of node with args, its output thrown away. */
function timed(args: string[]): Promise<{ seconds: number; mb: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', REPORT_RSS, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(killer);
      if (code !== 0) return reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      const rss = /maxrss (\d+)/.exec(stderr);
      if (!rss) return reject(new Error(`node ${args.join(' ')} ended without its figures: ${stderr.slice(-500)}`));
      resolve({ seconds: (performance.now() - started) / 1000, mb: Number(rss[1]) / 1024 });
    });
  });
}

export async function explainBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const runs = options.quick ? 1 : options.runs;
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-bench-explain-'));
  try {
    const whole = join(dir, 'whole.har');
    const quarter = join(dir, 'quarter.har');
    const text = har(ENTRIES);
    writeFileSync(whole, text);
    writeFileSync(quarter, har(ENTRIES / 4));
    const parse = `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(whole)}, 'utf8'))`;
    const floor: { seconds: number; mb: number }[] = [];
    const explained: { seconds: number; mb: number }[] = [];
    const quartered: number[] = [];
    for (let run = 1; run <= runs; run++) {
      floor.push(await timed(['-e', parse]));
      explained.push(await timed([PROGRAM, 'explain', whole, '--json']));
      quartered.push((await timed([PROGRAM, 'explain', quarter, '--json'])).seconds);
      log(
        `  run ${run}/${runs}: explain ${explained.at(-1)!.seconds.toFixed(1)} s (${Math.round(explained.at(-1)!.mb)} MB), a quarter ${quartered.at(-1)!.toFixed(1)} s, reading the JSON ${floor.at(-1)!.seconds.toFixed(1)} s`,
      );
    }
    /** A median of explain's runs beside the same median of reading the JSON. */
    const beside = (name: string, key: 'seconds' | 'mb', unit: string): Figure => {
      const value = median(explained.map((r) => r[key]));
      const floorValue = median(floor.map((r) => r[key]));
      const baseline = { label: 'node reading and parsing it', value: floorValue };
      return { bench: 'explain', name, value, unit, baseline, ratio: value / floorValue };
    };
    const growth = median(explained.map((r) => r.seconds)) / median(quartered);
    const size = `${ENTRIES.toLocaleString('en-US')} entries (${Math.round(text.length / 2 ** 20)} MB)`;
    return [
      beside(`explain --json, a HAR of ${size}`, 'seconds', 's'),
      beside('its peak memory', 'mb', 'MB'),
      {
        bench: 'explain',
        name: 'time for 4x the entries (linear: 4x)',
        value: growth,
        unit: 'x',
        target: '< 6x',
        met: growth < 6,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
