import type { Browser } from '@playwright/test';
import type { EnginePage, ExperimentResult } from '../../engines/engine.js';
import { openEnginePage } from '../../engines/open.js';
import { EVERY_ENGINE } from '../../fixtures.js';
import { browserSettings, type BrowserSettings } from '../../stacks/stack.js';
import { expect, test, type ServerClient } from './server.js';
import { PHONE_VIEWPORT, sidewaysOverflow } from './phone.js';

/** What a page's run and its expectations may look at besides an experiment's own result. */
export interface RunContext {
  /**
   * 'chromium', 'firefox' or 'webkit': where the spec lets engines differ, the expectation names
   * the engine.
   */
  browserName: string;
  origins: { self: string; other: string };
}

/** What one run of a page produced: what each experiment it ran observed, by id, and anything else it recorded. */
export interface PageRun {
  results: Record<string, ExperimentResult>;
}

/** What an expectation sees: the run (with the id of every experiment on the page) and the server, read as curl would. */
export interface CheckContext<R extends PageRun> extends RunContext {
  run: R & { ids: string[] };
  server: ServerClient;
}

/** An experiment's expectation, written from SPEC.md: assertions on what it observed. */
export type Check<R extends PageRun> = (result: ExperimentResult, context: CheckContext<R>) => void | Promise<void>;

/**
 * An experiment that needs a page of its own (it leaves the page, or counts what the server saw
 * of it alone): its whole test, on a page in the project's engine (the engine interface, so it
 * runs in every engine).
 */
export type Alone = (fixtures: RunContext & { page: EnginePage; server: ServerClient }) => Promise<void>;

export interface ExperimentPlan<R extends PageRun> {
  /** The page's name: 'reads' for /reads.html. Every test title starts with it. */
  page: string;
  /** How long the page's one run may take. */
  runTimeout: number;
  /**
   * Runs the page's experiments once, in a page of its own, through the engine interface (so the
   * same run drives Playwright's Chromium and Firefox and WebKitGTK over WebDriver). By default:
   * open the page on its own origin and press "Run all".
   */
  run?: (page: EnginePage, context: RunContext) => Promise<R>;
  /** Per experiment the run runs: its expectation. The state must be 'agree' unless knownDifferences says otherwise. */
  afterRun: Record<string, Check<R>>;
  /** Per experiment, where the spec lets this engine differ: true when the page must say 'known-difference'. */
  knownDifferences?: Record<string, (result: ExperimentResult, context: CheckContext<R>) => boolean>;
  /** Per experiment that the shared run cannot run: its own test, on its own page. */
  alone?: Record<string, Alone>;
  /**
   * Experiments whose tests the spec writes itself (titled `<page>: <id>` too), where several
   * share what this plan cannot give them (e.g. browsers set up otherwise, one long run).
   */
  testedElsewhere?: readonly string[];
  /** Checks of the run as a whole (what no single experiment owns), by title. */
  wholeRun?: Record<string, (context: CheckContext<R>) => void | Promise<void>>;
}

/**
 * One test per experiment of a page, titled `<page>: <id>`, each asserting that experiment's
 * expectation, so a red line names the experiment that broke.
 *
 * The page runs once per worker, not once per test: the experiments of `afterRun` share one run
 * (a beforeAll), and their tests form one group that Playwright keeps in one worker and runs in
 * order (mode 'default', inside the config's fullyParallel). A failed expectation does not skip
 * the others: Playwright replaces the worker after a failure, and the rest of the group runs the
 * page once more in the new worker. A run that fails (the page does not load, an experiment hangs)
 * fails the group's first test and skips the rest. `alone` experiments are tests of their own,
 * spread over the workers like any other test, each on a page of its own.
 *
 * The group's first test checks that every experiment on the page has exactly one test: the ids
 * of the page's `section.experiment`, read after the run, against the keys of both tables. The
 * run is on a phone-sized screen, and a test of the group checks that the page, with everything
 * its experiments wrote, still fits the phone's width (what a student in a class holds: a second
 * run of every page for it cost about four minutes of test time over three engines).
 */
export function experimentTests<R extends PageRun>(plan: ExperimentPlan<R>): void {
  const alone = plan.alone ?? {};
  const twice = Object.keys(plan.afterRun).filter((id) => id in alone);
  if (twice.length > 0)
    throw new Error(`${plan.page}: ${twice.join(', ')} would have two tests (in afterRun and in alone)`);
  const tested = [...Object.keys(plan.afterRun), ...Object.keys(alone), ...(plan.testedElsewhere ?? [])];

  test.describe(() => {
    test.describe.configure({ mode: 'default' });
    let run: (R & Measured) | undefined;
    // Playwright's browser in chromium and firefox projects; in a webkit project nothing is
    // launched for it (fixtures.ts), and the run goes through WebDriver.
    test.beforeAll(async ({ browser, browserName, origins, stack }) => {
      test.setTimeout(plan.runTimeout + 30_000);
      run = await runPage(browser, plan, { browserName, origins }, browserSettings(stack));
    });
    const ran = () => {
      if (!run) throw new Error(`${plan.page}: the page's run did not happen`);
      return run;
    };

    test(`${plan.page}: every experiment on the page has exactly one test`, { tag: EVERY_ENGINE }, () => {
      const { ids } = ran();
      const untested = ids.filter((id) => !tested.includes(id));
      const notOnPage = tested.filter((id) => !ids.includes(id));
      const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
      expect(untested, `experiments on ${plan.page}.html with no test: ${untested.join(', ')}`).toEqual([]);
      expect(notOnPage, `tests of experiments not on ${plan.page}.html: ${notOnPage.join(', ')}`).toEqual([]);
      expect(repeated, `ids used twice on ${plan.page}.html: ${repeated.join(', ')}`).toEqual([]);
    });

    for (const [id, check] of Object.entries(plan.afterRun))
      test(`${plan.page}: ${id}`, { tag: EVERY_ENGINE }, async ({ browserName, origins, server }) => {
        const context: CheckContext<R> = { browserName, origins, server, run: ran() };
        const result = context.run.results[id];
        if (!result)
          throw new Error(`${id} did not run: the page's run ran ${Object.keys(context.run.results).join(', ')}`);
        await check(result, context);
        const known = plan.knownDifferences?.[id]?.(result, context) ?? false;
        expect(result.state, id).toBe(known ? 'known-difference' : 'agree');
      });

    test(
      `${plan.page}: on a phone-sized screen, the page still fits the width once its experiments have run`,
      { tag: EVERY_ENGINE },
      () => {
        // What scrolls sideways, by how far, and what sticks out (widest first).
        expect(ran().overflow, `${plan.page}.html wider than ${PHONE_VIEWPORT.width} px`).toEqual({
          pixels: 0,
          widest: [],
        });
      },
    );

    for (const [title, check] of Object.entries(plan.wholeRun ?? {}))
      test(`${plan.page}: ${title}`, { tag: EVERY_ENGINE }, async ({ browserName, origins, server }) => {
        await check({ browserName, origins, server, run: ran() });
      });
  });

  for (const [id, body] of Object.entries(alone))
    test(`${plan.page}: ${id}`, { tag: EVERY_ENGINE }, async ({ enginePage, browserName, origins, server }) => {
      await body({ page: enginePage, browserName, origins, server });
    });
}

/** What the run measured of the page once it ended: its experiments' ids, and how far it scrolls sideways. */
interface Measured {
  ids: string[];
  overflow: Awaited<ReturnType<typeof sidewaysOverflow>>;
}

/**
 * The page's one run, in a page of its own (the tests that read it open no page) the size of a
 * phone: a browser context of Playwright's browser, or in a webkit project a WebKitGTK of its own
 * over WebDriver, stopped with everything it started when the run ends, however it ends.
 */
async function runPage<R extends PageRun>(
  browser: Browser,
  plan: ExperimentPlan<R>,
  context: RunContext,
  settings: BrowserSettings,
): Promise<R & Measured> {
  const page = await openEnginePage(browser, context.browserName, settings);
  try {
    await page.setViewport(PHONE_VIEWPORT.width, PHONE_VIEWPORT.height);
    const run =
      plan.run ??
      (async (p: EnginePage, { origins }: RunContext) => {
        await p.open(`${origins.self}/${plan.page}.html`);
        return { results: await p.runAll(plan.runTimeout) } as R;
      });
    const result = await run(page, context);
    return { ...result, ids: await page.ids(), overflow: await sidewaysOverflow(page) };
  } finally {
    await page.close();
  }
}
