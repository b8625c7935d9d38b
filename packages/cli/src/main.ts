/**
 * origin-lab: the commands of the Origin Lab package. `check` runs real engines against a
 * server; `explain` reads evidence a developer already has. Every failure is one line and an exit
 * code, never a stack trace (ORIGIN_LAB_DEBUG=1 prints it as well).
 */
import { readFileSync } from 'node:fs';
import { checkCommand } from './check/check-command.js';
import { enginesCommand } from './engines/engines-command.js';
import { explainCommand } from './explain/explain-command.js';
import { mcpCommand } from './mcp/mcp-command.js';
import { CommandError, EXIT } from './terminal.js';

const HELP = `Usage: origin-lab <command> [options]

Commands:
  check <url> --from <origin>   check a server's CORS in real engines (Chromium, Firefox, WebKit)
  explain [file|-]              explain a CORS failure from a console message, a HAR file or curl output
  engines                       which browser engines check finds here, where, and how to add the missing
  mcp                           check, explain and engines as a Model Context Protocol server (stdio)

Run origin-lab <command> --help for a command's options and examples.
  origin-lab --version          the version
`;

function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const io = { stdout: process.stdout, stderr: process.stderr, version: version() };
  try {
    switch (command) {
      case 'check':
        return await checkCommand(rest, io);
      case 'explain':
        return await explainCommand(rest, io);
      case 'engines':
        return await enginesCommand(rest, io);
      case 'mcp':
        return await mcpCommand(rest, io);
      case '--version':
      case '-v':
        io.stdout.write(`${io.version}\n`);
        return EXIT.ok;
      case undefined:
        // No command is a usage error: the help goes with it to standard error.
        io.stderr.write(HELP);
        return EXIT.usage;
      case '--help':
      case '-h':
      case 'help':
        io.stdout.write(HELP);
        return EXIT.ok;
      default:
        throw new CommandError(
          `unknown command "${command}" (commands: check, explain, engines, mcp; see origin-lab --help)`,
        );
    }
  } catch (err) {
    if (process.env.ORIGIN_LAB_DEBUG === '1') io.stderr.write(`${(err as Error).stack}\n`);
    const code = err instanceof CommandError ? err.exitCode : EXIT.usage;
    const message = err instanceof CommandError ? err.message : `unexpected failure: ${(err as Error).message}`;
    io.stderr.write(`origin-lab: ${message}\n`);
    return code;
  }
}

/**
 * Standard output that cannot be written ends the run, never with a stack trace: closed by its
 * reader (`| head`), quietly; anything else (a full disk) with one line and exit 2.
 */
function endOnOutputFailure(err: NodeJS.ErrnoException): void {
  if (err.code === 'EPIPE') process.exit(EXIT.outputClosed);
  process.stderr.write(`origin-lab: cannot write standard output (${err.code ?? err.message})\n`);
  process.exit(EXIT.usage);
}

/** Ctrl-C and SIGTERM end the run: engines are closed by the exit listeners of what started them. */
export function runFromCommandLine(): void {
  process.stdout.on('error', endOnOutputFailure);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      process.stderr.write(`\norigin-lab: stopped (${signal})\n`);
      process.exit(130);
    });
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
