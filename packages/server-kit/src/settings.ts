/**
 * A service's settings, each written once: a table whose rows name the config path, the
 * environment variable, the default, the values accepted and one line of doc (go-httpbin's one
 * line per flag). The config type, the defaults, the environment reader and the README's
 * configuration table are all derived from it. A bad value throws a ConfigError naming the
 * variable (the messages of env.ts).
 */
import { envBool, envInt, envList, envNumber, envString } from './env.js';

export type Env = Record<string, string | undefined>;

/** The values read so far, by variable: a later row's bound may be an earlier row's value. */
type ReadSoFar = ReadonlyMap<string, unknown>;

/** One row of a settings table. T is the value it gives the config. */
export interface Setting<T> {
  readonly kind: 'setting';
  /** The environment variable that sets it. */
  readonly env: string;
  readonly default: T;
  /** The values accepted, in words: `0 to 600000`, `true or false`. */
  readonly accepts: string;
  /** One line: what the setting changes (Markdown: it is the README's Meaning cell). */
  readonly doc: string;
  /** How the docs show the default when the value itself does not read well (computed, secret). */
  readonly shown?: string;
  /** Reads the variable; fallback is the default (or the one the caller gave instead). */
  read(env: Env, fallback: T, soFar: ReadSoFar): T;
}

/**
 * A group of rows read together into one value that is not their record: e.g. `null` unless its
 * first row is set (the Redis settings).
 */
export interface SettingGroup<Rows extends SettingsTable, T> {
  readonly kind: 'group';
  readonly rows: Rows;
  build(values: ValuesOf<Rows>): T;
}

/** Rows, groups, nested tables, and constants (fixed values no variable changes). */
export type SettingsTable = { readonly [key: string]: SettingsEntry };
type SettingsEntry = Setting<any> | SettingGroup<any, any> | SettingsTable | number | string | boolean; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The config type a table gives: each row's value, each group's result, constants widened. */
export type ValuesOf<S> = S extends { kind: 'setting'; read(...args: never[]): infer T }
  ? T
  : S extends { kind: 'group'; build(...args: never[]): infer T }
    ? T
    : S extends number
      ? number
      : S extends string
        ? string
        : S extends boolean
          ? boolean
          : { -readonly [K in keyof S]: ValuesOf<S[K]> };

interface RowText {
  doc: string;
  shown?: string;
}

/** An upper bound: a number, or the variable of an earlier row (then the default is capped by it). */
type UpperBound = number | string;

/** One row: every builder below ends here, with its own words for what it accepts and its own reader. */
function row<T>(env: string, defaultValue: T, accepts: string, text: RowText, read: Setting<T>['read']): Setting<T> {
  return { kind: 'setting', env, default: defaultValue, accepts, ...text, read };
}

function int(env: string, defaultValue: number, min: number, max: UpperBound, text: RowText): Setting<number> {
  return row(env, defaultValue, `${min} to ${max}`, text, (source, fallback, soFar) => {
    if (typeof max === 'number') return envInt(source, env, fallback, min, max);
    const top = soFar.get(max);
    if (typeof top !== 'number') throw new Error(`${env}: its bound ${max} must be read before it`);
    return envInt(source, env, Math.min(fallback, top), min, top);
  });
}

/** A whole number that is unset (undefined) unless the variable gives one. */
function optionalInt(env: string, min: number, max: number, text: RowText): Setting<number | undefined> {
  return row<number | undefined>(env, undefined, `${min} to ${max}`, text, (source, fallback) =>
    source[env] === undefined || source[env] === '' ? fallback : envInt(source, env, 0, min, max),
  );
}

function number(env: string, defaultValue: number, min: number, max: number, text: RowText): Setting<number> {
  return row(env, defaultValue, `${min} to ${max}`, text, (source, fallback) =>
    envNumber(source, env, fallback, min, max),
  );
}

function bool(env: string, defaultValue: boolean, text: RowText): Setting<boolean> {
  return row(env, defaultValue, 'true or false', text, (source, fallback) => envBool(source, env, fallback));
}

/** Text; an empty value is the default. check may refuse a value with a ConfigError. */
function text(
  env: string,
  defaultValue: string,
  options: RowText & { accepts?: string; check?: (value: string) => void },
): Setting<string> {
  const { check, accepts = 'text', ...words } = options;
  return row(env, defaultValue, accepts, words, (source, fallback) => {
    const value = envString(source, env, fallback);
    check?.(value);
    return value;
  });
}

/** A comma-separated list; blank items are dropped, an empty value is the default. */
function list(env: string, defaultValue: readonly string[], text: RowText): Setting<string[]> {
  return row(env, [...defaultValue], 'a comma-separated list', text, (source, fallback) =>
    envList(source, env, fallback),
  );
}

/** A row whose reading is its own (a secret read from a file, a parsed list of pairs). */
function custom<T>(
  env: string,
  defaultValue: T,
  options: RowText & { accepts: string; read: (env: Env, fallback: T) => T },
): Setting<T> {
  const { read, accepts, ...words } = options;
  return row(env, defaultValue, accepts, words, (source, fallback) => read(source, fallback));
}

function group<Rows extends SettingsTable, T>(rows: Rows, build: (values: ValuesOf<Rows>) => T): SettingGroup<Rows, T> {
  return { kind: 'group', rows, build };
}

/** The row builders: `setting.int('PORT', 3000, 0, 65_535, { doc })`. */
export const setting = { int, optionalInt, number, bool, text, list, custom, group };

function isSetting(entry: SettingsEntry): entry is Setting<unknown> {
  return typeof entry === 'object' && (entry as { kind?: unknown }).kind === 'setting';
}

function isGroup(entry: SettingsEntry): entry is SettingGroup<SettingsTable, unknown> {
  return typeof entry === 'object' && (entry as { kind?: unknown }).kind === 'group';
}

/** Every default of the table (a fresh object each call). */
export function defaultsOf<S extends SettingsTable>(table: S): ValuesOf<S> {
  return walk(table, (row) =>
    Array.isArray(row.default) ? [...(row.default as unknown[])] : row.default,
  ) as ValuesOf<S>;
}

/**
 * Reads every row from env, in the table's order. fallbacks replaces a row's default, by
 * variable, where the default depends on how the service was started (the port it got).
 * The first bad value throws a ConfigError naming the variable.
 */
export function readSettings<S extends SettingsTable>(
  table: S,
  env: Env,
  fallbacks: Readonly<Record<string, unknown>> = {},
): ValuesOf<S> {
  const soFar = new Map<string, unknown>();
  return walk(table, (row) => {
    const value = row.read(env, row.env in fallbacks ? fallbacks[row.env] : row.default, soFar);
    soFar.set(row.env, value);
    return value;
  }) as ValuesOf<S>;
}

function walk(table: SettingsTable, valueOf: (row: Setting<unknown>) => unknown): unknown {
  const values: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    if (isSetting(entry)) values[key] = valueOf(entry);
    else if (isGroup(entry)) values[key] = entry.build(walk(entry.rows, valueOf) as never);
    else if (typeof entry === 'object') values[key] = walk(entry as SettingsTable, valueOf);
    else values[key] = entry;
  }
  return values;
}

/** Every row of the table, in order, with its config path (`upstream.timeoutMs`). */
export function rowsOf(table: SettingsTable, prefix = ''): { path: string; row: Setting<unknown> }[] {
  return Object.entries(table).flatMap(([key, entry]) => {
    const path = `${prefix}${key}`;
    if (isSetting(entry)) return [{ path, row: entry }];
    if (isGroup(entry)) return rowsOf(entry.rows, `${path}.`);
    if (typeof entry === 'object') return rowsOf(entry as SettingsTable, `${path}.`);
    return [];
  });
}

/** The variable of each row of a flat table: what an error names so a teacher knows what to change. */
export function variablesOf<S extends SettingsTable>(
  table: S,
): { [K in keyof S as S[K] extends { kind: 'setting' } ? K : never]: string } {
  return Object.fromEntries(
    Object.entries(table).flatMap(([key, entry]) => (isSetting(entry) ? [[key, entry.env]] : [])),
  ) as never;
}

/** How a default reads in the docs. */
export function shownDefault(row: Setting<unknown>): string {
  if (row.shown !== undefined) return row.shown;
  const value = row.default;
  if (Array.isArray(value)) return `\`${value.join(',')}\``;
  if (typeof value === 'string') return value === '' ? 'unset' : `\`${value}\``;
  return String(value);
}

/** The README's configuration table: one line per variable, with its default, what it accepts, and its doc. */
export function settingsMarkdown(tables: readonly SettingsTable[]): string {
  const lines = ['| Variable | Default | Accepts | Meaning |', '|---|---|---|---|'];
  for (const table of tables) {
    for (const { row } of rowsOf(table)) {
      lines.push(`| \`${row.env}\` | ${shownDefault(row)} | ${row.accepts} | ${row.doc} |`);
    }
  }
  return lines.join('\n');
}
