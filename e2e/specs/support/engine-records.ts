/**
 * What the playground's every-ready-case run leaves behind, and the check that it is still what
 * is committed: the engine records the engines page shows (services/pages/engine-records/) and
 * the console corpus the explainer is tested on (packages/cors-rules/test/corpus/). With
 * E2E_RECORD_ENGINES=1 (`npm run engines:record`) they are written over the committed ones.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EngineRecord } from '@origin-lab/contract';
import { PRESETS } from '../../../services/pages/web/ts/playground/presets.js';
import { expect } from '../../fixtures.js';
import { CORPUS, type ConsoleCorpus } from './console-corpus.js';
import { RECORDS } from './ready-cases.js';

/** Where fresh records go. */
const FRESH = fileURLToPath(new URL('../../../test-results/engine-records/', import.meta.url));
const RECORD_MODE = process.env.E2E_RECORD_ENGINES === '1';

/** An engine's major version: 156 of Chromium 156.0.8078.79, 2.50 of WebKitGTK 2.50.6, 153 of 153.7.0esr. */
const majorVersion = (version: string) =>
  /^2\.\d+\./.test(version) ? version.split('.').slice(0, 2).join('.') : version.split('.')[0];

function write(dir: string, file: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}${file}`, `${JSON.stringify(value, null, 2)}\n`);
}

/** Writes the engine's console corpus; outside record mode, each case's lines must be the committed ones. */
export function expectCorpusAsCommitted(corpus: ConsoleCorpus): void {
  const file = `console-${corpus.engine}.json`;
  write(RECORD_MODE ? CORPUS : FRESH, file, corpus);
  if (RECORD_MODE) return;
  const committed = existsSync(`${CORPUS}${file}`)
    ? (JSON.parse(readFileSync(`${CORPUS}${file}`, 'utf8')) as ConsoleCorpus)
    : null;
  for (const preset of PRESETS)
    expect
      .soft(
        corpus.cases[preset.id]?.messages,
        `${preset.id}: what ${corpus.engine} prints is not the committed corpus (${file}): run \`npm run engines:record\` and commit packages/cors-rules/test/corpus`,
      )
      .toEqual(committed?.cases[preset.id]?.messages);
}

/** Writes the engine record; outside record mode, the engines page's committed one must still be what the engine does. */
export function expectRecordAsCommitted(record: EngineRecord): void {
  const file = `${record.stack}-${record.engine}.json`;
  write(RECORD_MODE ? RECORDS : FRESH, file, record);
  if (RECORD_MODE) return;
  const refresh =
    'the engines page is out of date: run `npm run engines:record` and commit services/pages/engine-records';
  expect(existsSync(`${RECORDS}${file}`), `no engine record ${file}: ${refresh}`).toBe(true);
  const committed = JSON.parse(readFileSync(`${RECORDS}${file}`, 'utf8')) as EngineRecord;
  // A Debian security update moves the patch level under CI; what an engine does changes with its
  // major version, and every outcome is compared below whatever the version.
  expect
    .soft(
      majorVersion(committed.version),
      `${file}: recorded with ${committed.version}, run with ${record.version}; ${refresh}`,
    )
    .toBe(majorVersion(record.version));
  // The cases this stack sends (all, or those a secure context changes: ready-cases.ts), each as committed.
  expect
    .soft(Object.keys(record.cases).sort(), `the cases of ${file}: ${refresh}`)
    .toEqual(Object.keys(committed.cases).sort());
  for (const id of Object.keys(record.cases))
    expect.soft(record.cases[id], `${id} in ${file}: ${refresh}`).toEqual(committed.cases[id]);
}
