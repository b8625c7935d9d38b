/**
 * A command's options, each written once (go-httpbin's one line per flag): its name, the value it
 * takes, its default and one line of help. `--help` is printed from the table and the parser
 * (node:util parseArgs) is configured from it, so the two never disagree.
 */
import { parseArgs } from 'node:util';
import { hideUrlSecrets } from '@origin-lab/cors-rules/explain';
import { DEFAULT_LAB } from './lab-link.js';
import { CommandError, type ColorChoice } from './terminal.js';

export interface OptionSpec {
  /** The long name, without the dashes. */
  name: string;
  short?: string;
  /** A flag takes no value. */
  flag?: boolean;
  /** May be given more than once. */
  multiple?: boolean;
  /** How the value is shown in the help (e.g. <origin>). */
  value?: string;
  /** The default, as the help shows it. */
  default?: string;
  help: string;
}

export interface CommandSpec {
  name: string;
  /** The usage line after the program name. */
  usage: string;
  summary: string;
  options: readonly OptionSpec[];
  /** What the positional arguments are, one line each. */
  positionals: readonly string[];
  examples: readonly string[];
  /** Lines after the examples (exit codes, files read). */
  notes: readonly string[];
}

export type ParsedValues = Record<string, string | boolean | string[] | undefined>;

/** Options whose values may be secrets (a header's key, a session): an error never repeats them. */
const SECRET_OPTIONS = ['--header', '--session'];

/** Parses argv against the spec; an unknown option or a missing value is a CommandError naming it. */
export function parseCommand(
  spec: CommandSpec,
  argv: readonly string[],
): { values: ParsedValues; positionals: string[] } {
  const options = Object.fromEntries(
    spec.options.map((option) => [
      option.name,
      {
        type: option.flag ? ('boolean' as const) : ('string' as const),
        ...(option.short && { short: option.short }),
        ...(option.multiple && { multiple: true }),
      },
    ]),
  );
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    return { values: values as ParsedValues, positionals };
  } catch (err) {
    // parseArgs names the option in its message; keep its first sentence, and point at --help.
    // Its "ambiguous" is a value that starts with a dash, which it took for another option.
    // Its "unknown option" goes on about positionals after --, which no command here takes.
    const [first] = (err as Error).message.split('\n').map((line) => line.replace(/\. To specify a positional.*$/, ''));
    const option = / '(--[\w-]+)' argument is ambiguous/.exec(first!)?.[1];
    const value = option === undefined ? undefined : argv[argv.indexOf(option) + 1];
    const message =
      !option || !value
        ? first!
        : SECRET_OPTIONS.includes(option)
          ? `${option}: a value that starts with a dash is written ${option}=<value> (the value is not shown)`
          : `${option} ${value}: a value that starts with a dash is written ${option}=${value}`;
    throw new CommandError(`${message} (see origin-lab ${spec.name} --help)`);
  }
}

/**
 * A command's arguments, parsed against its table; null once --help is printed (the command then
 * exits 0). More than `most` positional arguments is a CommandError with tooMany's words.
 */
export function commandArguments(
  spec: CommandSpec,
  argv: readonly string[],
  stdout: NodeJS.WritableStream,
  most: number,
  tooMany: (got: string) => string,
): { values: ParsedValues; positionals: string[] } | null {
  const parsed = parseCommand(spec, argv);
  if (parsed.values.help === true) {
    stdout.write(`${helpText(spec)}\n`);
    return null;
  }
  if (parsed.positionals.length > most) throw new CommandError(tooMany(parsed.positionals.join(' ')));
  return parsed;
}

/** The help text of a command, from its table. */
export function helpText(spec: CommandSpec): string {
  const rows = spec.options.map((option) => {
    const names = `${option.short ? `-${option.short}, ` : '    '}--${option.name}${option.flag ? '' : ` ${option.value ?? '<value>'}`}`;
    const extra = [
      option.multiple ? 'repeatable' : '',
      option.default !== undefined ? `default: ${option.default}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return [names, `${option.help}${extra ? ` (${extra})` : ''}`] as const;
  });
  const width = Math.min(34, Math.max(...rows.map(([names]) => names.length)) + 2);
  const wrapHelp = (text: string) => wrap(text, 100 - width - 2).join(`\n${' '.repeat(width + 2)}`);
  return [
    `Usage: origin-lab ${spec.name} ${spec.usage}`,
    '',
    ...wrap(spec.summary, 100),
    '',
    ...spec.positionals.map((line) => `  ${line}`),
    ...(spec.positionals.length > 0 ? [''] : []),
    'Options:',
    ...rows.map(([names, help]) =>
      names.length + 2 > width
        ? `  ${names}\n${' '.repeat(width + 2)}${wrapHelp(help)}`
        : `  ${names.padEnd(width)}${wrapHelp(help)}`,
    ),
    '',
    'Examples:',
    ...spec.examples.map((line) => `  ${line}`),
    '',
    ...spec.notes,
  ].join('\n');
}

/** Words of text in lines of at most width characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A value of one of the choices, or a CommandError naming the option and the choices. */
export function choice<T extends string>(name: string, value: unknown, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw new CommandError(`--${name} must be one of ${choices.join(', ')}; got "${String(value)}"`);
}

/** A whole number from min to max, or a CommandError naming the option and the bounds. */
export function integer(name: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max)
    throw new CommandError(`--${name} must be a whole number from ${min} to ${max}; got "${String(value)}"`);
  return number;
}

/** A comma-separated list (repeats joined), items trimmed, empties dropped. */
export function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return items
    .flatMap((item: string) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * A URL as an error message may quote it: without its user name and password, query values and
 * fragment (hideUrlSecrets), so that a key or password given by mistake is never printed.
 */
export function quotedUrl(text: string): string {
  return `"${hideUrlSecrets(text)}"`;
}

/** An origin as the user wrote it, checked and serialized; a CommandError says what is wrong. */
export function parseOrigin(text: string, what = '--from'): string {
  const named = `${what} ${quotedUrl(text)}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CommandError(`${named} is not an origin: write scheme://host[:port]`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CommandError(`${named} is not an http or https origin`);
  if (url.username || url.password) throw new CommandError(`${named} has credentials in it; an origin has none`);
  // An empty query or fragment ("?", "#") leaves no trace in the URL: the text says it.
  if ((url.pathname !== '/' && url.pathname !== '') || /[?#]/.test(text) || /^[a-z]+:\/\/[^/]+\/./i.test(text))
    throw new CommandError(`${named} has a path, query or fragment; an origin is scheme://host[:port] only`);
  return url.origin;
}

/** The rows both commands' tables hold, written once. */
export const SHARED_OPTIONS = {
  lab: {
    name: 'lab',
    value: '<url>',
    default: DEFAULT_LAB,
    help: 'where the Origin Lab pages run (npm start; PORT changes it), for the playground links',
  },
  color: { name: 'color', value: '<when>', default: 'auto', help: 'auto, always or never' },
  browser: {
    name: 'browser',
    value: '<name=path>',
    multiple: true,
    help: 'the program to use for an engine: chromium=, firefox= or webkit= (WebKit’s WebDriver); before CHROMIUM_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH and every place engines are looked for',
  },
  help: { name: 'help', short: 'h', flag: true, help: 'this help' },
} as const satisfies Record<string, OptionSpec>;

/** --lab: the lab's origin, and whether it was given (a link made from the default says how to change it). */
export function readLab(value: unknown): { lab: string; labGiven: boolean } {
  if (value === undefined) return { lab: DEFAULT_LAB, labGiven: false };
  return { lab: parseOrigin(String(value), '--lab'), labGiven: true };
}

/** --browser name=path (repeatable), each engine at most once. */
export function readBrowsers(value: unknown): Partial<Record<'chromium' | 'firefox' | 'webkit', string>> {
  const named: Partial<Record<'chromium' | 'firefox' | 'webkit', string>> = {};
  for (const item of Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : []) {
    const at = item.indexOf('=');
    const [name, path] = at < 0 ? [item, ''] : [item.slice(0, at), item.slice(at + 1)];
    if (name !== 'chromium' && name !== 'firefox' && name !== 'webkit')
      throw new CommandError(`--browser takes chromium=<path>, firefox=<path> or webkit=<path>; got "${item}"`);
    if (!path) throw new CommandError(`--browser ${name}= needs the program's path`);
    if (named[name]) throw new CommandError(`--browser names ${name} twice (${named[name]} and ${path}); give one`);
    named[name] = path;
  }
  return named;
}

/** --timeout in ms, for check and engines alike: from 100 ms to 10 minutes. */
/** The bounds of --timeout, in ms, as its help says them. */
export const TIMEOUT_BOUNDS = { min: 100, max: 600_000 } as const;

export function readTimeout(value: unknown, fallback: number): number {
  return integer('timeout', value, TIMEOUT_BOUNDS.min, TIMEOUT_BOUNDS.max, fallback);
}

/** A number option's bounds as its help writes them. */
export const boundsText = ({ min, max }: { min: number; max: number }) => `from ${min} to ${max}`;

/** --color: auto, always or never. */
export function readColor(value: unknown): ColorChoice {
  return choice('color', value, ['auto', 'always', 'never'] as const, 'auto');
}
