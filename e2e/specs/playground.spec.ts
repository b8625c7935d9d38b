import type { EngineName, EngineOutcome, EngineRecord } from '@origin-lab/contract';
import { PRESETS } from '../../services/pages/web/ts/playground/presets.js';
import type { EnginePage } from '../engines/engine.js';
import { EVERY_ENGINE, test, expect } from '../fixtures.js';
import { sendCase, type Outcome } from './support/playground-case.js';
import { corsLines, normalizeLine, type ConsoleCorpus } from './support/console-corpus.js';
import { readConsoleMessage } from '@origin-lab/cors-rules/explain';
import { casesFrom, EXPECTED } from './support/ready-cases.js';
import { expectCorpusAsCommitted, expectRecordAsCommitted } from './support/engine-records.js';
import { webkitConsole } from '@origin-lab/engines';
import { expectExplained, recordPass } from './support/evidence.js';

/**
 * The errors and warnings WebKit prints for a page that sends its case on opening (`#…&send`),
 * up to the playground's verdict line: as a user would copy them from Web Inspector.
 */
async function webkitPrinted(url: string): Promise<string[]> {
  const lines = await webkitConsole(url, { until: /^origin-lab playground: verdict /, timeoutMs: 20_000 });
  return lines.filter((line) => line.level === 'ERROR' || line.level === 'WARN').map((line) => line.text);
}

/** A case's outcome in this engine, as EXPECTED writes it out from the spec: observed, predicted, shown. */
async function expectAsWritten(
  page: EnginePage,
  preset: (typeof PRESETS)[number],
  engine: EngineName,
  origins: { self: string; other: string },
  { state, outcome }: Awaited<ReturnType<typeof sendCase>>,
): Promise<void> {
  const expected = EXPECTED[preset.id]!;
  const does = expected[engine] ?? expected.does;
  const [preflight, sent, readable] = does;
  const name = `${preset.id}: ${preset.name}`;
  expect(outcome.observed, name).toMatchObject({ preflight, sent, readable });
  if (expected.extraVisible !== undefined) expect(outcome.observed.extraVisible, name).toBe(expected.extraVisible);
  if (expected.status !== undefined) expect(outcome.status, name).toBe(expected.status);
  if (expected.serverSaw) {
    const saw = await page.evaluate(() => document.getElementById('server-saw')?.textContent ?? '');
    for (const words of expected.serverSaw(origins, engine)) expect(saw, name).toContain(words);
  }
  if (expected.why)
    expect(await page.evaluate(() => document.getElementById('why')?.textContent ?? ''), name).toMatch(expected.why);
  const spec = expected.spec ?? expected.does;
  if (expected.spec) {
    const [specPreflight, specSent, specReadable] = spec;
    expect(outcome.predicted, name).toMatchObject({
      preflight: specPreflight,
      sent: specSent,
      readable: specReadable,
    });
  }
  const differs = does.some((value, index) => value !== spec[index]);
  expect(state, name).toBe(differs ? 'known-difference' : 'agree');
}

/**
 * What the engine printed for a case, or null where nothing is looked at. Chromium and Firefox:
 * what the driven page printed, read at once. WebKit tells its driver nothing: its console comes
 * from a MiniBrowser of its own, on the plain stack, for the cases it does not read (one it reads
 * printed nothing, in any engine: measured on all 24 of 42, issue 34). A MiniBrowser per case
 * takes seconds, so each is queued behind the one before (one at a time) and runs while the driven
 * session goes on with the next cases; the returned promise is awaited after the last.
 */
function printedFor(
  page: EnginePage,
  engine: EngineName,
  stack: string,
  preset: (typeof PRESETS)[number],
  origins: { self: string },
  queue: { last: Promise<unknown> },
): Promise<string[] | null> {
  if (engine !== 'webkit') return page.consoleMessages();
  const expected = EXPECTED[preset.id]!;
  if (stack !== 'embedded' || (expected.webkit ?? expected.does)[2]) return Promise.resolve(null);
  const url = `${origins.self}/playground.html#${preset.fragment ? `${preset.fragment}&` : ''}send`;
  const printed = queue.last.catch(() => undefined).then(() => webkitPrinted(url));
  // Awaited after the loop; until then a failure must not count as unhandled.
  printed.catch(() => undefined);
  queue.last = printed;
  return printed;
}

/** A case's CORS lines for the console corpus; every one must be a line the explainer reads. */
function corpusCase(
  printed: string[],
  id: string,
  engine: EngineName,
  origins: Parameters<typeof normalizeLine>[1],
  outcome: Awaited<ReturnType<typeof sendCase>>['outcome'],
): ConsoleCorpus['cases'][string] {
  const lines = corsLines(printed);
  for (const line of lines)
    expect
      .soft(readConsoleMessage(line), `${id}: ${engine} printed a CORS message the explainer does not know: ${line}`)
      .not.toBeNull();
  return {
    messages: lines.map((line) => normalizeLine(line, origins)),
    failureRule: outcome.predicted.failureRule,
    readable: outcome.observed.readable,
  };
}

test('every ready case of the playground has its outcome written out here', { tag: EVERY_ENGINE }, () => {
  expect(Object.keys(EXPECTED).sort()).toEqual(PRESETS.map((preset) => preset.id).sort());
});

test(
  'every ready case: predicted, sent, seen by the server, as the spec says; recorded for the engines page',
  { tag: EVERY_ENGINE },
  async ({ enginePage, browser, origins, stack, browserName }, testInfo) => {
    const presets = casesFrom(origins.self, PRESETS);
    test.setTimeout(presets.length * 15_000);
    const engine = browserName as EngineName;
    const recordsEvidence = stack.name === 'embedded' && engine !== 'webkit';
    const cases: Record<string, EngineOutcome> = {};
    const outcomes = new Map<string, Outcome>();
    const consoleCases: ConsoleCorpus['cases'] = {};
    const printedCases = new Map<string, Promise<string[] | null>>();
    const miniBrowsers = { last: Promise.resolve() as Promise<unknown> };
    // On the plain stack Chromium and Firefox record the pass: the HAR and curl -v evidence of the
    // explainer comes from this same run, each case's part told apart (support/evidence.ts).
    const recording = recordsEvidence ? await recordPass(browser, engine, testInfo) : null;
    const page = recording?.page ?? enginePage;
    try {
      for (const preset of presets) {
        if (!EXPECTED[preset.id]) throw new Error(`no expected outcome for ready case ${preset.id}`);
        const playground = `${origins.self}/playground.html`;
        if (recording) await recording.openCase(playground, preset.id, preset.fragment);
        else await page.open(`${playground}#${preset.fragment}`);
        await page.consoleMessages();
        const { state, outcome } = await sendCase(page);
        printedCases.set(preset.id, printedFor(page, engine, stack.name, preset, origins, miniBrowsers));
        await expectAsWritten(page, preset, engine, origins, { state, outcome });
        cases[preset.id] = outcome.outcome;
        outcomes.set(preset.id, outcome);
        await recording?.endCase(preset.id);
      }
      if (recording) {
        const evidence = await recording.finish();
        expect([...evidence.keys()].sort(), 'a part of the HAR for every case').toEqual([...outcomes.keys()].sort());
        for (const [id, kept] of evidence) expectExplained(kept, engine, id, outcomes.get(id)!);
      }
      for (const [id, printed] of printedCases) {
        const lines = await printed;
        if (lines) consoleCases[id] = corpusCase(lines, id, engine, origins, outcomes.get(id)!);
      }
    } finally {
      // No MiniBrowser outlives the test, however it ended.
      await miniBrowsers.last.catch(() => undefined);
      await recording?.close();
    }

    const record: EngineRecord = {
      engine,
      version: enginePage.version,
      stack: stack.name,
      scheme: new URL(origins.self).protocol.replace(':', ''),
      recordedAt: new Date().toISOString(),
      cases,
    };
    // The console corpus (packages/cors-rules/test/corpus/): one stack is enough, the plain one.
    if (Object.keys(consoleCases).length > 0 && stack.name === 'embedded')
      expectCorpusAsCommitted({ engine, version: record.version, recordedAt: record.recordedAt, cases: consoleCases });
    expectRecordAsCommitted(record);
  },
);
