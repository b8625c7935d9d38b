/**
 * The expectations file (origin-lab.check.json) that turns a check into a regression test: the
 * origins that must be able to read, with which methods and headers, with or without
 * credentials; and whether every other origin tried must be refused. Read once, checked whole:
 * a bad file is one error naming the field.
 *
 *   {
 *     "allow": [
 *       { "origin": "https://app.example.com", "methods": ["GET", "PUT"], "headers": ["Authorization"], "credentials": true }
 *     ],
 *     "othersDenied": true,
 *     "hostile": ["arbitrary", "null", "subdomain", "third-party"],
 *     "alsoHostile": ["https://staging.example.com"]
 *   }
 *
 * hostile (the classes to try, as --hostile names them) replaces --hostile; alsoHostile adds to
 * --also-hostile.
 */
import { normalizeMethod } from '@origin-lab/cors-rules';
import { CommandError } from '../terminal.js';
import { readUserFile } from '../user-file.js';
import type { Cell } from './cells.js';
import { parseOrigin } from '../options.js';
import { notTriedOf, notTriedText } from './not-tried.js';
import { HOSTILE_KINDS, type HostileKind } from './origins.js';
import type { CellRun } from './run-check.js';

export interface Allowance {
  origin: string;
  methods: string[];
  headers: string[];
  credentials: boolean;
}

export interface Expectations {
  file: string;
  allow: Allowance[];
  othersDenied: boolean;
  /** The attacker classes to try, when the file names them. */
  hostile: HostileKind[] | null;
  alsoHostile: string[];
}

export interface ExpectationResult {
  id: string;
  description: string;
  holds: boolean;
  /** What did not hold, one line each (engine, origin, request). */
  failures: string[];
}

/** The largest expectations file read. */
export const MAX_EXPECTATIONS_BYTES = 256 * 1024;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function readExpectations(file: string): Expectations {
  const text = readUserFile(file, `--expect ${file}`, '--expect', MAX_EXPECTATIONS_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CommandError(`--expect ${file}: not JSON (${(err as Error).message})`);
  }
  const bad = (where: string, what: string) => new CommandError(`--expect ${file}: ${where} ${what}`);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw bad('the file', 'must be an object');
  const known = ['$schema', 'allow', 'othersDenied', 'hostile', 'alsoHostile'];
  for (const key of Object.keys(json))
    if (!known.includes(key)) throw bad(key, `is not a field (known: ${known.join(', ')})`);
  const { allow, othersDenied } = json as { allow?: unknown; othersDenied?: unknown };
  if (!Array.isArray(allow) || allow.length === 0) throw bad('allow', 'must be a list of at least one { origin, ... }');
  if (othersDenied !== undefined && typeof othersDenied !== 'boolean')
    throw bad('othersDenied', 'must be true or false');
  const entries = allow.map((entry: unknown, index): Allowance => {
    const where = `allow[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw bad(where, 'must be an object');
    const fields = entry as Record<string, unknown>;
    for (const key of Object.keys(fields))
      if (!['origin', 'methods', 'headers', 'credentials'].includes(key))
        throw bad(`${where}.${key}`, 'is not a field');
    if (typeof fields.origin !== 'string') throw bad(`${where}.origin`, 'must be an origin');
    let origin: string;
    try {
      origin = parseOrigin(fields.origin, `${where}.origin`);
    } catch (err) {
      throw new CommandError(`--expect ${file}: ${(err as Error).message}`);
    }
    const names = (key: 'methods' | 'headers') => {
      const value = fields[key] ?? [];
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && TOKEN.test(item)))
        throw bad(`${where}.${key}`, 'must be a list of names');
      return value as string[];
    };
    if (fields.credentials !== undefined && typeof fields.credentials !== 'boolean')
      throw bad(`${where}.credentials`, 'must be true or false');
    return {
      origin,
      methods: names('methods').map(normalizeMethod),
      headers: names('headers'),
      credentials: fields.credentials === true,
    };
  });
  const classes = readHostile(json as Record<string, unknown>, bad);
  return { file, allow: entries, othersDenied: othersDenied ?? true, ...classes };
}

/** The file's attacker classes (names as --hostile takes them) and extra attacker origins. */
function readHostile(
  json: Record<string, unknown>,
  bad: (where: string, what: string) => CommandError,
): Pick<Expectations, 'hostile' | 'alsoHostile'> {
  const { hostile, alsoHostile } = json;
  const known = HOSTILE_KINDS as readonly string[];
  if (hostile !== undefined && (!Array.isArray(hostile) || !hostile.every((kind) => known.includes(kind as string))))
    throw bad('hostile', `must be a list of attacker classes (known: ${HOSTILE_KINDS.join(', ')})`);
  if (alsoHostile !== undefined && (!Array.isArray(alsoHostile) || !alsoHostile.every((o) => typeof o === 'string')))
    throw bad('alsoHostile', 'must be a list of origins');
  return {
    hostile: hostile === undefined ? null : (hostile as HostileKind[]),
    alsoHostile: ((alsoHostile as string[] | undefined) ?? []).map((origin, index) => {
      try {
        return parseOrigin(origin);
      } catch {
        throw bad(`alsoHostile[${index}]`, `"${origin}" must be an origin: scheme://host[:port]`);
      }
    }),
  };
}

/** The cell that shows one allowed header (a GET carrying it). */
export function headerCell(name: string, credentials: boolean): Cell {
  return {
    id: `header-${name.toLowerCase()}${credentials ? '-credentials' : ''}`,
    title: `a GET with ${name}${credentials ? ' and credentials' : ''}`,
    label: `GET + ${name}${credentials ? ', credentials' : ''}`,
    api: 'fetch',
    method: 'GET',
    headers: [[name, name.toLowerCase() === 'authorization' ? 'Bearer origin-lab-check' : 'origin-lab-check']],
    credentials,
    body: null,
  };
}

/** What the expectations add to the run: their origins, methods and header cells. */
export function expectedCells(expectations: Expectations): Cell[] {
  const cells = new Map<string, Cell>();
  for (const entry of expectations.allow)
    for (const header of entry.headers) {
      const cell = headerCell(header, entry.credentials);
      cells.set(cell.id, cell);
    }
  return [...cells.values()];
}

/** Checks each expectation against what the engines did. */
export function checkExpectations(expectations: Expectations, runs: readonly CellRun[]): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  const failuresOf = (matching: CellRun[], want: boolean) =>
    matching
      .filter((run) => run.couldNot === null && run.readable !== want)
      .map(
        (run) =>
          `${run.engine}: ${run.origin.origin}${run.origin.context === 'page' ? '' : ` (${run.origin.context})`}, ${run.cell.title}: ${want ? `refused (${run.reason?.text ?? run.rejection ?? 'no reason'})` : `read (status ${run.status})`}`,
      );
  for (const entry of expectations.allow) {
    const mine = runs.filter((run) => run.origin.kind === 'yours' && run.origin.origin === entry.origin);
    const checks: [string, CellRun[]][] = [
      [
        `${entry.origin} reads a GET${entry.credentials ? ' with credentials' : ''}`,
        mine.filter((run) => run.cell.id === (entry.credentials ? 'get-credentials' : 'get')),
      ],
      ...entry.headers.map((header): [string, CellRun[]] => [
        `${entry.origin} sends ${header}`,
        mine.filter((run) => run.cell.id === headerCell(header, entry.credentials).id),
      ]),
      ...entry.methods
        .filter((method) => method !== 'GET')
        .map((method): [string, CellRun[]] => [
          `${entry.origin} sends ${method}`,
          mine.filter((run) => run.cell.id === `method-${method.toLowerCase()}`),
        ]),
    ];
    for (const [description, matching] of checks) {
      const failures = matching.length === 0 ? ['the run had no such request'] : failuresOf(matching, true);
      results.push({ id: `allow:${description}`, description, holds: failures.length === 0, failures });
    }
  }
  if (expectations.othersDenied) {
    const others = runs.filter((run) => run.origin.kind !== 'yours');
    const failures = failuresOf(others, false);
    // An origin an engine never asked CORS about is not denied there: said, not counted as held.
    const gaps = notTriedOf(runs).map(notTriedText);
    results.push({
      id: 'deny:others',
      description: `no other origin reads (${new Set(others.map((run) => run.origin.origin)).size} tried${gaps.length > 0 ? `; ${gaps.join('; ')}` : ''})`,
      holds: failures.length === 0,
      failures,
    });
  }
  return results;
}
