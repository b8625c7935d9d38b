/**
 * `origin-lab explain [file|-]`: reads a console message, a HAR file or curl's output (a file, or
 * standard input) and explains every cross-origin exchange in it with the shared rules, locally:
 * nothing it reads leaves the machine.
 */
import {
  EvidenceError,
  MAX_EVIDENCE_CHARS,
  playgroundFields,
  playgroundFragment,
  readEvidence,
  STACKS,
  STACK_NAMES,
  type Explanation,
  type ReadEvidence,
  type Stack,
} from '@origin-lab/cors-rules/explain';
import { seeItHappen } from '../lab-link.js';
import {
  choice,
  commandArguments,
  parseOrigin,
  readColor,
  readLab,
  SHARED_OPTIONS,
  type CommandSpec,
} from '../options.js';
import { colorEnabled, CommandError, EXIT, pacedWriter, painter, type CommandIO, type Paint } from '../terminal.js';
import { readUserFile, sizeText } from '../user-file.js';

export const EXPLAIN_COMMAND: CommandSpec = {
  name: 'explain',
  usage: '[file|-] [options]',
  summary:
    'Explains a CORS failure from what you already have: a console message (Chromium, Firefox or Safari/WebKit), a HAR file exported from DevTools or recorded by Playwright, or the output of curl -v or curl -i. For each cross-origin exchange, failed first: the rule that refused it, the header and value that decided it, whether the request reached the server, the fix in your stack, and a playground link that shows the same refusal. It reads locally and sends nothing anywhere.',
  positionals: ['[file|-]              the file to read; - or nothing reads standard input (a HAR may be up to 50 MB)'],
  options: [
    {
      name: 'origin',
      value: '<origin>',
      help: 'the page’s origin, for curl -i output (which does not show the Origin sent)',
    },
    {
      name: 'stack',
      value: '<name>',
      help: `show the fix for this stack: ${STACKS.join(', ')} (default: a one-line summary)`,
    },
    SHARED_OPTIONS.lab,
    { name: 'json', flag: true, help: 'the explanations as JSON on standard output' },
    SHARED_OPTIONS.color,
    SHARED_OPTIONS.help,
  ],
  examples: [
    'origin-lab explain console.txt',
    'pbpaste | origin-lab explain -',
    'origin-lab explain session.har --stack express',
    "curl -sv -H 'Origin: https://app.example.com' https://api.example.com/me 2>&1 | origin-lab explain",
    'curl -si https://api.example.com/me | origin-lab explain --origin https://app.example.com',
  ],
  notes: [
    'Exit codes: 0 explained; 2 bad usage, or nothing in the input to explain (it says why); 141 the reader',
    'of standard output stopped reading (| head), as for a command stopped by SIGPIPE.',
  ],
};

function readInput(file: string | undefined): Promise<string> {
  if (file !== undefined && file !== '-')
    return Promise.resolve(readUserFile(file, file, 'explain', MAX_EVIDENCE_CHARS));
  if (process.stdin.isTTY)
    throw new CommandError('give a file, or pipe the evidence in (see origin-lab explain --help)');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    process.stdin.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_EVIDENCE_CHARS) {
        process.stdin.destroy();
        reject(new CommandError(`standard input: over ${sizeText(MAX_EVIDENCE_CHARS)}, the most explain reads`));
      } else chunks.push(chunk);
    });
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

type Link = (fields: Record<string, string> | null) => string | null;

/**
 * The JSON report, written one explanation at a time: the same text JSON.stringify(report, null, 2)
 * makes, without ever holding it whole (a HAR of 100,000 exchanges is hundreds of MB of it).
 */
async function writeJson(out: NodeJS.WritableStream, read: ReadEvidence, link: Link): Promise<void> {
  const write = pacedWriter(out);
  const nested = (value: unknown, depth: number) =>
    JSON.stringify(value, null, 2).replace(/\n/g, `\n${' '.repeat(depth)}`);
  await write(`{\n  "kind": ${JSON.stringify(read.kind)},\n  "explanations": [`);
  for (const [index, e] of read.explanations.entries()) {
    const linked = {
      ...e,
      playgroundLink: link(e.playground),
      ...(e.candidates && { candidates: e.candidates.map((c) => ({ ...c, playgroundLink: link(c.playground) })) }),
    };
    await write(`${index > 0 ? ',' : ''}\n    ${nested(linked, 4)}`);
  }
  await write(
    `${read.explanations.length > 0 ? '\n  ' : ''}],\n  "unknownLines": ${nested(read.unknownLines, 2)}\n}\n`,
  );
}

export async function explainCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const parsed = commandArguments(EXPLAIN_COMMAND, argv, io.stdout, 1, (got) => `explain reads one file; got ${got}`);
  if (!parsed) return EXIT.ok;
  const { values, positionals } = parsed;
  const origin = typeof values.origin === 'string' ? parseOrigin(values.origin, '--origin') : undefined;
  const stack = values.stack === undefined ? null : choice('stack', values.stack, STACKS, 'express');
  const { lab, labGiven } = readLab(values.lab);
  const color = readColor(values.color);
  const text = await readInput(positionals[0]);
  let read;
  try {
    read = readEvidence(text, { ...(origin && { origin }) });
  } catch (err) {
    if (err instanceof EvidenceError) throw new CommandError(err.message);
    throw err;
  }
  const link = (fields: Record<string, string> | null) =>
    fields ? `${lab}/playground.html#${playgroundFragment(fields)}` : null;
  if (values.json === true) {
    await writeJson(io.stdout, read, link);
    return EXIT.ok;
  }
  const paint = painter(colorEnabled(color, io.stdout));
  await writeText(io.stdout, read, { paint, stack, link, labGiven });
  return EXIT.ok;
}

const VERDICT: Record<Explanation['verdict'], [string, 'red' | 'yellow' | 'green' | 'dim']> = {
  refused: ['REFUSED', 'red'],
  'not-cors': ['NOT CORS', 'yellow'],
  unknown: ['UNKNOWN', 'dim'],
  readable: ['READABLE', 'green'],
};

interface TextOptions {
  paint: Paint;
  stack: Stack | null;
  link: Link;
  labGiven: boolean;
}

/** The report for people, written one explanation at a time (as writeJson, for a HAR of thousands). */
async function writeText(out: NodeJS.WritableStream, read: ReadEvidence, options: TextOptions): Promise<void> {
  const { kind, explanations, unknownLines } = read;
  const { paint } = options;
  const write = pacedWriter(out);
  await write(
    paint(
      'bold',
      `${explanations.length} ${kind === 'console' ? 'message' : 'exchange'}${explanations.length === 1 ? '' : 's'} explained (${kind === 'har' ? 'a HAR file' : kind === 'curl' ? 'curl output' : 'console text'})`,
    ),
  );
  for (const e of explanations) await write(`\n\n${explanationLines(e, options).join('\n')}`);
  if (unknownLines.length > 0) {
    const heading = `${unknownLines.length} line${unknownLines.length === 1 ? '' : 's'} that no engine prints for CORS, left out:`;
    const shown = unknownLines.slice(0, 5).map((line) => paint('dim', `  ${line.slice(0, 120)}`));
    await write(`\n\n${[paint('dim', heading), ...shown].join('\n')}`);
  }
  await write('\n');
}

/** One explanation: the verdict and the exchange, what happened, the fix and where to see it. */
function explanationLines(e: Explanation, options: TextOptions): string[] {
  const { paint, stack } = options;
  const [label, style] = VERDICT[e.verdict];
  const lines = [
    `${paint(style, label)} ${e.method ?? ''} ${e.url ?? ''}${e.origin ? ` from ${e.origin}` : ''}${e.engine ? paint('dim', ` (${e.engine})`) : ''}`.replace(
      /\s+/g,
      ' ',
    ),
    `  ${e.text}`,
  ];
  if (e.header)
    lines.push(`  ${paint('dim', `the header at fault: ${e.header}${e.value !== undefined ? `: ${e.value}` : ''}`)}`);
  if (e.reachedServer !== null)
    lines.push(
      `  ${paint('dim', e.reachedServer ? 'the request reached the server' : 'the request never reached the server')}`,
    );
  for (const step of e.sequence.filter((s) => !s.ok).slice(0, 1))
    lines.push(`  ${paint('dim', `failed at: ${step.label}`)}`);
  if (e.sequence.length > 0) lines.push(`  ${paint('dim', sequenceLine(e))}`);
  if (e.fix) {
    lines.push(`  Fix: ${e.fix.summary}`);
    if (stack) lines.push(`       ${STACK_NAMES[stack]}: ${e.fix.byStack[stack]}`);
  }
  const playground = options.link(e.playground);
  if (playground) lines.push(`  ${paint('dim', `${seeItHappen(options.labGiven)}: ${playground}`)}`);
  for (const candidate of e.candidates ?? [])
    lines.push(`  ${paint('dim', `It may be ${candidate.title}: ${options.link(candidate.playground)}`)}`);
  if (e.withCredentials)
    lines.push(
      `  ${paint('dim', `With credentials it would be refused (${e.withCredentials}): ${options.link(playgroundFields(e.withCredentials, {}))}`)}`,
    );
  for (const risk of e.risks) lines.push(`  ${paint('yellow', 'risk:')} ${risk.text}`);
  for (const basis of e.restsOn) lines.push(`  ${paint('dim', `rests on: ${basis}`)}`);
  for (const unknown of e.unknowns) lines.push(`  ${paint('dim', `cannot tell: ${unknown}`)}`);
  return lines;
}

/** The sequence in one line: page → browser → server, with ✘ at the step that failed. */
function sequenceLine(e: Explanation): string {
  return e.sequence
    .map(
      (step) =>
        `${step.from === step.to ? `[${step.label}]` : `${step.from}→${step.to}: ${step.label}`}${step.ok ? '' : ' ✘'}${step.inferred ? '?' : ''}`,
    )
    .join('  ·  ');
}
