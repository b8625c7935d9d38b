import http from 'node:http';
import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { measureInTurns, throughputFigures } from '../lib/compare.js';
import { rssBytes, sleep } from '../lib/processes.js';
import { BENCH_ORIGIN, startApi, type Server } from '../lib/servers.js';
import { ECHO_GET, plan, target } from './throughput.js';

/** A valid visitor token (16 to 64 base64url characters), one per simulated visitor. */
const tokenOf = (n: number) => `bench-visitor-${String(n).padStart(6, '0')}`;

/** Requests sent at once while filling journals. */
const FILL_CONCURRENCY = 64;

/** Sends count GETs of path(i) over keep-alive connections, FILL_CONCURRENCY at a time. */
async function sendMany(server: Server, count: number, path: (i: number) => string): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: FILL_CONCURRENCY });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await new Promise<void>((resolve, reject) => {
        const req = http.get(
          `${server.url}${path(i)}`,
          { agent, headers: { Origin: BENCH_ORIGIN }, timeout: 10_000 },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
        req.on('error', reject);
      });
    }
  };
  try {
    await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
}

/** How many entries the api holds for one visitor, read back from /lab/journal. */
async function entriesHeld(server: Server, token: string): Promise<number> {
  const response = await fetch(`${server.url}/lab/journal?visitor=${token}`, {
    headers: { Accept: 'application/json' },
  });
  const { entries } = (await response.json()) as { entries: unknown[] };
  return entries.length;
}

/**
 * The per-visitor journal's cost. Throughput: the same echo GET with a visitor token, to an api
 * recording it and to one with the journal off (JOURNAL_VISITORS=0), in turns. Memory: one api fills 1,000 visitors'
 * journals to their cap (200 entries each, the defaults), another answers the same number of
 * requests without a token; the RSS difference per visitor is the journal's memory.
 */
export async function journalBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const figures: Figure[] = [];
  const api = await startApi();
  const apiWithoutJournal = await startApi({ JOURNAL_VISITORS: '0' });
  const tagged = { ...ECHO_GET, path: `${ECHO_GET.path}&visitor=${tokenOf(0)}` };
  try {
    const results = await measureInTurns(
      [target('journal off', apiWithoutJournal.url, tagged, options), target('journal on', api.url, tagged, options)],
      plan(options, log),
    );
    figures.push(
      ...throughputFigures(
        'journal',
        'api GET /api/echo with a visitor token, journal on',
        results.get('journal on')!,
        results.get('journal off')!,
        'the same GET, journal off (JOURNAL_VISITORS=0)',
        0.9,
      ),
    );
  } finally {
    await Promise.all([api.child.stop(), apiWithoutJournal.child.stop()]);
  }

  const visitors = options.quick ? 100 : 1_000;
  const entriesPerVisitor = 200;
  const requests = visitors * entriesPerVisitor;
  const settings = { JOURNAL_VISITORS: String(visitors), JOURNAL_ENTRIES: String(entriesPerVisitor) };
  const recording = await startApi(settings);
  const plain = await startApi(settings);
  try {
    const path = (i: number) => `/api/echo?name=ada&tags=cors&n=${i}`;
    log(`  filling ${visitors} journals with ${entriesPerVisitor} entries each (${requests} requests per api)`);
    await sendMany(plain, requests, path);
    await sendMany(recording, requests, (i) => `${path(i)}&visitor=${tokenOf(i % visitors)}`);
    await sleep(2_000); // let both settle (timers, lazy sweeps) before reading RSS
    const held = await entriesHeld(recording, tokenOf(visitors - 1));
    const withJournals = rssBytes(recording.child.pid);
    const without = rssBytes(plain.child.pid);
    const MiB = 1024 ** 2;
    figures.push(
      {
        bench: 'journal',
        name: `api RSS holding ${visitors} full journals`,
        value: withJournals / MiB,
        unit: 'MiB',
        baseline: { label: 'an api that answered the same requests unrecorded', value: without / MiB },
        ratio: withJournals / without,
        note: `a sampled visitor holds ${held} entries (cap ${entriesPerVisitor})`,
      },
      {
        bench: 'journal',
        name: `memory per visitor with a full journal of ${entriesPerVisitor} entries`,
        value: (withJournals - without) / visitors / 1024,
        unit: 'KiB',
      },
    );
  } finally {
    await Promise.all([recording.child.stop(), plain.child.stop()]);
  }
  return figures;
}
