/**
 * Writes the figures of a `npm run bench -- --json=FILE` run into docs/performance.md, between
 * the markers <!-- bench:start --> and <!-- bench:end -->, with the machine they came from.
 * Usage: node bench/dist/render-doc.js bench/results/latest.json [docs/performance.md]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderNotes, renderTable, type Figure } from './lib/report.js';

interface Results {
  machine: Record<string, string | number>;
  options: Record<string, unknown>;
  figures: Figure[];
}

const [resultsFile, docFile = 'docs/performance.md'] = process.argv.slice(2);
if (!resultsFile) {
  process.stderr.write('usage: node bench/dist/render-doc.js RESULTS.json [docs/performance.md]\n');
  process.exit(2);
}
const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
const { machine, options } = results;
const section = [
  '<!-- bench:start -->',
  `Measured ${String(machine.date).slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} CPUs (${machine.cpuModel}), ` +
    `${machine.memoryGiB} GiB memory, Node ${machine.node}, Linux ${machine.kernel}; ` +
    `1-minute load average ${machine.loadAverage1mBefore ?? '?'} before the run and ${machine.loadAverage1m} after. ` +
    `${options.runs} runs of ${options.durationS} s per throughput figure, echo ${options.echoRuns} runs of ${options.echoDurationS} s on new processes each (medians; ratios are medians of per-run ratios, with the lowest and highest run in brackets), ` +
    `${options.connections} keep-alive connections; SSE: ${options.sseRuns} runs of ${options.sseTicks} ticks.`,
  '',
  renderTable(results.figures, true),
  '',
  renderNotes(results.figures),
  '<!-- bench:end -->',
].join('\n');
const doc = readFileSync(docFile, 'utf8');
const start = doc.indexOf('<!-- bench:start -->');
const end = doc.indexOf('<!-- bench:end -->');
if (start === -1 || end === -1)
  throw new Error(`${docFile} has no <!-- bench:start --> ... <!-- bench:end --> section`);
writeFileSync(docFile, doc.slice(0, start) + section + doc.slice(end + '<!-- bench:end -->'.length));
process.stdout.write(`${docFile}: figures of ${machine.date} written\n`);
