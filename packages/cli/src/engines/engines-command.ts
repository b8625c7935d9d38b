/**
 * `origin-lab engines`: which engines `check` would use on this machine, where each was found and
 * which version it says it is, what else was found, and for each missing one why, with the one
 * command that installs it. It starts no browser: each program is only asked its version.
 */
import {
  EngineChoiceError,
  findEngines,
  type Discovery,
  type FindOptions,
  type FoundEngine,
  VERSION_TIMEOUT_MS,
} from '@origin-lab/engines';
import {
  boundsText,
  commandArguments,
  readBrowsers,
  readColor,
  readTimeout,
  SHARED_OPTIONS,
  TIMEOUT_BOUNDS,
  type CommandSpec,
} from '../options.js';
import { colorEnabled, CommandError, EXIT, painter, type CommandIO, type Paint } from '../terminal.js';

export const ENGINES_COMMAND: CommandSpec = {
  name: 'engines',
  usage: '[options]',
  summary:
    'Lists the browser engines check would use here: for each of Chromium, Firefox and WebKit the program, where it was found and the version it says it is; then what else was found, and for each missing engine why, with the command that installs it. Engines are looked for in this order: --browser, then CHROMIUM_PATH, FIREFOX_PATH and WEBKIT_DRIVER_PATH, then Playwright’s browser cache (PLAYWRIGHT_BROWSERS_PATH or the platform’s), then where installers put them, then PATH. No browser is started.',
  positionals: [],
  options: [
    SHARED_OPTIONS.browser,
    { name: 'json', flag: true, help: 'the engines found and missing, as JSON on standard output' },
    {
      name: 'timeout',
      value: '<ms>',
      default: String(VERSION_TIMEOUT_MS),
      help: `longest wait for each program to say its version (more on a slow machine, or in a container starting cold; ${boundsText(TIMEOUT_BOUNDS)})`,
    },
    SHARED_OPTIONS.color,
    SHARED_OPTIONS.help,
  ],
  examples: [
    'origin-lab engines',
    'origin-lab engines --browser chromium=/opt/google/chrome/chrome',
    'PLAYWRIGHT_BROWSERS_PATH=/ms-playwright origin-lab engines --json',
  ],
  notes: [
    'Exit codes: 0 at least one engine check can drive; 1 none; 2 bad usage, or a --browser or *_PATH',
    'program that is not the engine it names, is not there, or is older than check drives (it says which).',
  ],
};

/** Finds the engines (findEngines); a named program that is not usable is a usage error naming it. */
export async function discoverEngines(options: FindOptions): Promise<Discovery> {
  try {
    return await findEngines(options);
  } catch (err) {
    if (err instanceof EngineChoiceError) throw new CommandError(err.message);
    throw err;
  }
}

export async function enginesCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const parsed = commandArguments(
    ENGINES_COMMAND,
    argv,
    io.stdout,
    0,
    (got) => `engines takes no arguments; got ${got}`,
  );
  if (!parsed) return EXIT.ok;
  const { values } = parsed;
  const color = readColor(values.color);
  const timeoutMs = readTimeout(values.timeout, VERSION_TIMEOUT_MS);
  const discovery = await discoverEngines({ named: readBrowsers(values.browser), versionTimeoutMs: timeoutMs });
  if (values.json === true) io.stdout.write(`${JSON.stringify(discovery, null, 2)}\n`);
  else io.stdout.write(render(discovery, painter(colorEnabled(color, io.stdout))));
  return discovery.engines.length > 0 ? EXIT.ok : EXIT.findings;
}

function line(engine: FoundEngine, paint: Paint): string {
  // A program never started (one check cannot drive) is not said to tell its version.
  const version = engine.version || engine.driver === 'unsupported' ? '' : ' (it says its version once started)';
  const miniBrowser = engine.miniBrowser ? `, starting ${engine.miniBrowser}` : '';
  return `  ${paint('bold', engine.family.padEnd(9))}${engine.label}${version}\n    ${engine.path} (${engine.via}${miniBrowser})\n`;
}

function render(discovery: Discovery, paint: Paint): string {
  let text = '';
  text +=
    discovery.engines.length > 0
      ? `${paint('green', 'check uses')}:\n${discovery.engines.map((engine) => line(engine, paint)).join('')}`
      : `${paint('red', 'No engine check can drive was found.')}\n`;
  if (discovery.others.length > 0)
    text += `\nAlso found, not used:\n${discovery.others
      .map(
        (other) =>
          `${line(other, paint)}    ${other.unsupported ?? `another ${other.family}: check uses the first found`}\n`,
      )
      .join('')}`;
  if (discovery.missing.length > 0)
    text += `\n${paint('yellow', 'Missing')}:\n${discovery.missing
      .map((missing) => `  ${paint('bold', missing.family.padEnd(9))}${missing.why}\n    install: ${missing.install}\n`)
      .join('')}`;
  return text;
}
