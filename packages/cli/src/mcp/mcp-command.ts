/**
 * `origin-lab mcp`: the commands as a Model Context Protocol server on standard input and output
 * (the official TypeScript SDK), for coding agents that want a real browser's verdict rather than
 * a guess. Three tools: `check` (the command itself, run as a child process with its own bounds),
 * `explain` (read here, in this process: what it is given is never sent anywhere) and `engines`.
 * Standard output carries the protocol only; nothing else is written there. The SDK and zod load
 * only when this command runs: the other commands start without them (a third of a second).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { EvidenceError, MAX_EVIDENCE_CHARS, readEvidence } from '@origin-lab/cors-rules/explain';
import { findEngines } from '@origin-lab/engines';
import type { z } from 'zod';
import { commandArguments, integer, parseOrigin, type CommandSpec } from '../options.js';
import { CommandError, EXIT, type CommandIO } from '../terminal.js';
import { notTriedText } from '../check/not-tried.js';
import { HOSTILE_KINDS, QUICK_KINDS } from '../check/origins.js';
import type { CheckReport } from '../check/report.js';

export const MCP_COMMAND: CommandSpec = {
  name: 'mcp',
  usage: '[options]',
  summary:
    'Serves check, explain and engines as tools of a Model Context Protocol server on standard input and output, for coding agents (Claude Code, Cursor, VS Code, ...). check runs real engines as the command does, within the same limits; explain reads locally and sends nothing anywhere.',
  positionals: [],
  options: [
    {
      name: 'check-timeout',
      value: '<seconds>',
      default: '600',
      help: 'the longest one check tool call may run before it is stopped (10-3600)',
    },
    { name: 'help', short: 'h', flag: true, help: 'this help' },
  ],
  examples: [
    'origin-lab mcp',
    'claude mcp add origin-lab -- npx --yes --package /abs/path/origin-lab-0.1.0.tgz origin-lab mcp',
  ],
  notes: ['Exit codes: 0 when the client closes the connection; 2 bad usage.'],
};

/**
 * The largest message the server reads: explain's 50 MB of text, with room for JSON's escapes of
 * it (a HAR's quotes double). The SDK's own default (10 MB) would end the connection, unanswered,
 * for evidence the tool promises to read.
 */
const MAX_MESSAGE_BYTES = 2 * MAX_EVIDENCE_CHARS + 1024 * 1024;

type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const failure = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** This program, to run check as a child process: the bundle (bin/origin-lab.js) is this file. */
const SELF = fileURLToPath(import.meta.url);

type Zod = typeof z;

/**
 * The longest value of a check option, and the most items of a list: a command line holds them
 * (each argument at most 128 KB on Linux), and no URL or origin is near this long.
 */
const MAX_VALUE_CHARS = 8_192;
const MAX_ITEMS = 50;

/** The check tool's input: the command's options an agent may set, each with its bound. */
const checkInput = (z: Zod) => ({
  url: z.string().max(MAX_VALUE_CHARS).describe('the URL your pages call, e.g. https://api.example.com/me'),
  from: z
    .array(z.string().max(MAX_VALUE_CHARS))
    .min(1)
    .max(MAX_ITEMS)
    .describe('your origins: scheme://host[:port] of the pages that call it'),
  engines: z
    .array(z.enum(['chromium', 'firefox', 'webkit']))
    .optional()
    .describe('default: every engine found'),
  hostile: z
    .array(z.string().max(MAX_VALUE_CHARS))
    .max(MAX_ITEMS)
    .optional()
    .describe(`attacker origin classes to try (${HOSTILE_KINDS.join(', ')}; default all)`),
  quick: z
    .boolean()
    .optional()
    .describe(
      `only the classes most often found (${QUICK_KINDS.join(', ')}): seconds instead of a minute; not with hostile`,
    ),
  alsoHostile: z
    .array(z.string().max(MAX_VALUE_CHARS))
    .max(MAX_ITEMS)
    .optional()
    .describe('more origins to try as attackers, e.g. a staging deployment the allowlist must not hold'),
  alsoUrl: z
    .array(z.string().max(MAX_VALUE_CHARS))
    .max(5)
    .optional()
    .describe('URLs of the same server that answer an error (401, 404, 500): are the CORS headers there too?'),
  methods: z
    .array(z.string().max(MAX_VALUE_CHARS))
    .max(MAX_ITEMS)
    .optional()
    .describe('more methods your pages send (these requests reach the server for real)'),
  profile: z
    .enum(['cors', 'local', 'mcp'])
    .optional()
    .describe(
      'cors (default): a server on the web; local: on this machine or a private network, also tries DNS rebinding; mcp: an MCP Streamable HTTP endpoint, the handshake sent for real from your origins',
    ),
  session: z
    .string()
    .max(MAX_VALUE_CHARS)
    .optional()
    .describe(
      "a file of your user's signed-in session (Playwright storage state, cookies.txt or a Cookie: line): set in each engine, to see whether its cookies go out under the engine's own cookie policy. Give a file path, never the cookies themselves; no value ever comes back",
    ),
  localNetwork: z
    .enum(['grant', 'deny', 'public'])
    .optional()
    .describe("Chromium's Local Network Access for a loopback or private target; public tries every origin"),
  maxRequests: z.number().int().min(1).max(10_000).optional().describe('the bound on requests (default 2000)'),
  timeout: z
    .number()
    .int()
    .min(100)
    .max(600_000)
    .optional()
    .describe('how long one step (a page load, a request) may take, in ms (default 10000; more on a slow machine)'),
});

type CheckInput = z.infer<z.ZodObject<ReturnType<typeof checkInput>>>;

/**
 * The command line of one check tool call: the command's own options, its JSON on standard output.
 * Every value is written --name=value and the URL comes after --, so no value an agent gives (one
 * that starts with a dash, "--help") is ever read as an option, or repeated by one's error.
 */
function checkArgs(input: CheckInput): string[] {
  const option = (name: string, value: string) => `--${name}=${value}`;
  const args = ['check', ...input.from.map((origin) => option('from', origin))];
  if (input.engines?.length) args.push(option('engines', input.engines.join(',')));
  if (input.hostile?.length) args.push(option('hostile', input.hostile.join(',')));
  if (input.quick) args.push('--quick');
  for (const origin of input.alsoHostile ?? []) args.push(option('also-hostile', origin));
  for (const url of input.alsoUrl ?? []) args.push(option('also-url', url));
  if (input.methods?.length) args.push(option('methods', input.methods.join(',')));
  if (input.session) args.push(option('session', input.session));
  if (input.profile) args.push(option('profile', input.profile));
  if (input.localNetwork) args.push(option('local-network', input.localNetwork));
  if (input.maxRequests) args.push(option('max-requests', String(input.maxRequests)));
  if (input.timeout) args.push(option('timeout', String(input.timeout)));
  return [...args, '--json=-', '--quiet', '--color=never', '--', input.url];
}

/** What a check found, in a few lines an agent can quote: the verdict, then each finding. */
function checkText(report: CheckReport): string {
  const verdict = report.exitCode === 1 ? 'FAIL' : report.exitCode === 3 ? 'NOT ALL TRIED' : 'OK';
  const lines = [
    `${verdict}: ${report.findings.length} finding(s) for ${report.target} in ${report.engines.map((e) => e.label).join(', ')} (exit ${report.exitCode}).`,
    ...report.findings.map(
      (finding) =>
        `${finding.severity.toUpperCase()}: ${finding.title}. ${finding.detail}${finding.fix ? ` Fix: ${finding.fix.summary}` : ''}`,
    ),
    ...report.notTried.map((gap) => `${notTriedText(gap)}.`),
  ];
  return lines.join('\n');
}

/** The checks running now (one at most), each with the way to stop it: the server stops them when it ends. */
const running = new Set<AbortController>();
/** Check calls run one after the other: each starts three browsers, which two at once would share a machine's cores with. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * One check tool call, after the calls before it: the command as a child process, stopped when
 * the client cancels the call, when the server ends, or after timeoutMs (SIGTERM: the command
 * closes its browsers as on Ctrl-C).
 */
function runCheckTool(input: CheckInput, timeoutMs: number, cancelled: AbortSignal): Promise<ToolResult> {
  const turn = queue.then(() =>
    cancelled.aborted ? failure('the check was cancelled') : runCheck(input, timeoutMs, cancelled),
  );
  queue = turn.catch(() => undefined);
  return turn;
}

function runCheck(input: CheckInput, timeoutMs: number, cancelled: AbortSignal): Promise<ToolResult> {
  const stop = new AbortController();
  const onCancel = () => stop.abort();
  cancelled.addEventListener('abort', onCancel);
  running.add(stop);
  return new Promise<ToolResult>((resolve) => {
    execFile(
      process.execPath,
      [SELF, ...checkArgs(input)],
      { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, signal: stop.signal },
      (error, stdout, stderr) => {
        if (stop.signal.aborted) return resolve(failure('the check was cancelled, and stopped'));
        if (error && (error as { killed?: boolean }).killed)
          return resolve(failure(`the check took longer than ${timeoutMs / 1000} s and was stopped`));
        let report: CheckReport;
        try {
          report = JSON.parse(stdout) as CheckReport;
        } catch {
          // Bad input or setup: the command's own one line (exit 2).
          return resolve(failure(stderr.trim().replace(/^origin-lab: /, '') || 'the check failed'));
        }
        const { target, exitCode, engines, findings, notTried, expectations, requests } = report;
        resolve({
          content: [{ type: 'text', text: checkText(report) }],
          structuredContent: { target, exitCode, engines, findings, notTried, expectations, requests },
        });
      },
    );
  }).finally(() => {
    cancelled.removeEventListener('abort', onCancel);
    running.delete(stop);
  });
}

/** The most explanations one answer holds (failed first): a HAR of a long session holds thousands. */
const MAX_EXPLANATIONS = 200;

/**
 * explain in this process. The answer holds the first MAX_EXPLANATIONS (failed first) and says how
 * many more there were; of the lines it could not read, only how many (they are the agent's own
 * text, which may hold anything).
 */
function explainTool({ text, origin }: { text: string; origin?: string }): ToolResult {
  try {
    // An origin as the command takes it (scheme://host[:port]), refused in the command's words.
    const read = readEvidence(text, origin ? { origin: parseOrigin(origin, 'origin') } : {});
    const shown = read.explanations.slice(0, MAX_EXPLANATIONS);
    const more = read.explanations.length - shown.length;
    const lines = shown.map(
      (e) =>
        `${e.verdict.toUpperCase()}${e.url ? ` ${[e.method, e.url].filter(Boolean).join(' ')}` : ''}: ${e.text}${e.fix ? ` Fix: ${e.fix.summary}` : ''}`,
    );
    if (more > 0)
      lines.push(`… and ${more} more, not in this answer (origin-lab explain on the file lists every one).`);
    return {
      content: [{ type: 'text', text: lines.join('\n') || 'nothing cross-origin to explain' }],
      structuredContent: { kind: read.kind, explanations: shown, more, unknownLineCount: read.unknownLines.length },
    };
  } catch (err) {
    if (err instanceof EvidenceError || err instanceof CommandError) return failure(err.message);
    throw err;
  }
}

async function enginesTool(): Promise<ToolResult> {
  const discovery = await findEngines();
  const lines = [
    ...discovery.engines.map((engine) => `${engine.family}: ${engine.label} at ${engine.path} (${engine.via})`),
    ...discovery.missing.map((missing) => `${missing.family}: missing (${missing.why}); install: ${missing.install}`),
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { ...discovery } };
}

/** The server with its three tools. */
async function originLabServer(version: string, checkTimeoutMs: number): Promise<McpServer> {
  const [{ McpServer }, { z }] = await Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('zod')]);
  const server = new McpServer({ name: 'origin-lab', version });
  server.registerTool(
    'check',
    {
      title: 'Check a server’s CORS in real browser engines',
      description:
        'Loads a page at each of your origins and at origins an attacker could own, in real engines (Chromium, Firefox, WebKit), has it call the URL, and reports what each engine let it send and read: findings graded by severity and by what it costs an attacker to be the origin (critical: any site sends a write as the user; high: any site reads with the user’s cookies), each with its fix. Takes tens of seconds (quick: about twenty). Methods you name are sent for real.',
      inputSchema: checkInput(z),
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input, extra) => runCheckTool(input, checkTimeoutMs, extra.signal),
  );
  server.registerTool(
    'explain',
    {
      title: 'Explain a CORS failure',
      description:
        'Explains a CORS failure from a console message (Chromium, Firefox, Safari/WebKit), a HAR file or the output of curl -v / curl -i: the rule that refused it, whether the request reached the server, and the fix. Reads locally; nothing is sent anywhere.',
      inputSchema: {
        text: z.string().max(MAX_EVIDENCE_CHARS).describe('the console message, HAR JSON or curl output'),
        origin: z
          .string()
          .max(MAX_VALUE_CHARS)
          .optional()
          .describe('the page’s origin, for curl -i output (which does not show it)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) => explainTool(input),
  );
  server.registerTool(
    'engines',
    {
      title: 'Which browser engines check can use here',
      description: 'Lists the engines found on this machine, where, their versions, and how to install a missing one.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => enginesTool(),
  );
  return server;
}

export async function mcpCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const parsed = commandArguments(MCP_COMMAND, argv, io.stdout, 0, (got) => `mcp takes no arguments; got ${got}`);
  if (!parsed) return EXIT.ok;
  const { values } = parsed;
  const checkTimeoutMs = integer('check-timeout', values['check-timeout'], 10, 3600, 600) * 1000;
  const server = await originLabServer(io.version, checkTimeoutMs);
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  // Said on standard error (the protocol owns standard output): a message over the bound ends the
  // connection, as the SDK's transport does, and the client should know why.
  transport.onerror = (err) => io.stderr.write(`origin-lab mcp: ${err.message}\n`);
  // However the server ends (the client gone, a signal), no check it started goes on without it.
  const stopChecks = () => running.forEach((stop) => stop.abort());
  process.once('exit', stopChecks);
  await server.connect(transport);
  await closed;
  stopChecks();
  await server.close();
  return EXIT.ok;
}
