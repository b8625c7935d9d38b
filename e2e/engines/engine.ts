import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTimeout } from '@origin-lab/engines';
import { TRIP_KEY } from '../../services/pages/web/ts/probes/page-trip.js';

/**
 * One engine-neutral way to drive a demonstration page: what the per-experiment specs need and
 * nothing more. Playwright drives Chromium and Firefox (playwright.ts); W3C WebDriver drives
 * WebKitGTK (webdriver.ts), which Playwright cannot. Everything a result says comes from the page
 * itself (`section.experiment#<id>`'s data-state and its output's data-observed JSON).
 */

/**
 * How often a wait asks the page again, in every engine: often in its first second, where most
 * waits end (a verdict, a page's script), then less, so that a long wait does not keep the page
 * busy answering.
 */
export const ASKING = { quickMs: 1_000, quickIntervalMs: 50, intervalMs: 250 } as const;

/**
 * Waits at the ASKING pace with a driver's own wait: wait(bound, interval) resolves once its
 * condition holds and rejects after bound ms. At most timeout ms in all; a failure of the first
 * phase that isTimeout does not call a timeout is thrown at once.
 */
export async function waitAtAskingPace(
  timeout: number,
  wait: (bound: number, interval: number) => Promise<unknown>,
  isTimeout: (err: unknown) => boolean = () => true,
): Promise<void> {
  const quick = Math.min(ASKING.quickMs, timeout);
  try {
    await wait(quick, ASKING.quickIntervalMs);
    return;
  } catch (err) {
    if (timeout <= quick || !isTimeout(err)) throw err;
  }
  await wait(timeout - quick, ASKING.intervalMs);
}

/** What the page says of one experiment: its verdict and what it observed. */
export interface ExperimentResult {
  state: string;
  observed: Record<string, any>;
}

export interface EnginePage {
  /** How reports name the engine, e.g. "WebKit (GTK) 2.50". */
  readonly label: string;
  /** The engine's own version: Playwright's browser.version(), or WebDriver's browserVersion (e.g. 2.50.6). */
  readonly version: string;
  /** Loads url and waits until the page's module has built the frame (#origin-self shows the origin). */
  open(url: string): Promise<void>;
  /** The text of the first element matching selector, or null when there is none. */
  text(selector: string): Promise<string | null>;
  /** Loads url and waits for its load event only (a page without the frame, e.g. /away.html). */
  navigate(url: string): Promise<void>;
  /**
   * Runs fn in the page (no arguments; it must not close over anything) and returns its JSON
   * result; a promise is awaited.
   */
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
  /** Runs a classic script's source in the page, as the driver runs scripts (the page's CSP does not apply). */
  addScript(source: string): Promise<void>;
  /** Makes the viewport width x height CSS pixels (a phone held upright: 390 x 844). */
  setViewport(width: number, height: number): Promise<void>;
  /** Focuses the first element matching selector, as its focus() does. */
  focus(selector: string): Promise<void>;
  /** Presses one key as the user would, on whatever has the focus: a named key ('Tab', 'Enter') or one character ('a'). */
  press(key: 'Tab' | 'Enter' | (string & {})): Promise<void>;
  /** A real click on the first element matching selector (a script's click() does not count as the user's in WebKit). */
  click(selector: string): Promise<void>;
  /**
   * A real click on the first element matching selector inside the first frame matching frame,
   * once both are there (within timeout ms): a user activation in the frame's own document.
   */
  clickInFrame(frame: string, selector: string, timeout: number): Promise<void>;
  /**
   * Answers the engine's storage access prompts Allow from now on, as a user would; false where
   * the driver cannot answer them (the prompt then goes unanswered: the engine refuses).
   */
  allowStorageAccess(): Promise<boolean>;
  /** Chooses the option with this value in the first select matching selector, as a user would. */
  select(selector: string, value: string): Promise<void>;
  /**
   * Puts files in the first file input matching selector, as a user choosing them would. The type
   * is the one the engine gives a file of that name (WebDriver hands the browser files on disk).
   */
  chooseFiles(selector: string, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void>;
  /** Waits until fn, run in the page as evaluate runs it, returns true; fails naming what after timeout ms. */
  waitFor(fn: () => boolean, timeout: number, what: string): Promise<void>;
  /** Clicks "Run all", waits until the page says it ran, and returns every experiment it ran, by id. */
  runAll(timeout: number): Promise<Record<string, ExperimentResult>>;
  /**
   * Clicks one experiment's Run button and waits until it has a verdict. Scripts only after the
   * click: the experiment may leave the page and come back (restored, or loaded again) meanwhile.
   */
  runExperiment(id: string, timeout: number): Promise<ExperimentResult>;
  /** Waits until one experiment has a verdict (FINISHED), however it was started; survives the page leaving and coming back. */
  waitForVerdict(id: string, timeout: number): Promise<void>;
  /** The address of the page shown now (after a trip, the one it came back to). */
  url(): Promise<string>;
  /** What the page says of one experiment now. */
  read(id: string): Promise<ExperimentResult>;
  /** The id of every experiment on the page ("Run all" leaves some out), in page order. */
  ids(): Promise<string[]>;
  /**
   * The console lines the engine printed since the last call (errors and warnings, as a user
   * would copy them), or null where the engine tells a driver none (WebKitGTK over classic
   * WebDriver). Firefox's CORS refusals arrive as page errors, joined here into the line its
   * console shows.
   */
  consoleMessages(): Promise<string[] | null>;
  /** Ends the page and everything the engine started for it; safe to call twice. */
  close(): Promise<void>;
}

/** The verdicts an experiment ends with. */
/**
 * Writes files a page is to choose into a new folder under parent and returns their paths: both
 * drivers hand the browser paths (a chosen file is read from disk, so the folder stays until the
 * page's session ends).
 */
export function writeChosenFiles(parent: string, files: { name: string; buffer: Buffer }[]): string[] {
  const folder = mkdtempSync(join(parent, 'files-'));
  return files.map(({ name, buffer }) => {
    const path = join(folder, name);
    writeFileSync(path, buffer);
    return path;
  });
}

export const FINISHED = /^(agree|disagree|known-difference|error)$/;

/** Where an experiment stood when it had no verdict in time: for the error that says so. */
export interface Whereabouts {
  url: string;
  readyState: string;
  visibility: string;
  state: string;
  /** The first 300 characters the experiment's output shows. */
  said: string;
  /** The beacons page's trip under way (sessionStorage), if any: its stage and the events so far. */
  trip: string | null;
  /** The page's last four finished requests, and how long ago each ended: a stalled one is not among them. */
  lastRequests: string[];
}

/** What whereaboutsScript is given: the experiment's section, and where the beacons page keeps a trip under way. */
export const whereaboutsOf = (sectionId: string) => ({ sectionId, tripKey: TRIP_KEY });

/**
 * Reads Whereabouts in the page (run by the driver's script call, so it closes over nothing): which
 * document the experiment is in, how far it got and when the network last answered it.
 */
export function whereaboutsScript({ sectionId, tripKey }: ReturnType<typeof whereaboutsOf>): Whereabouts {
  const section = document.getElementById(sectionId);
  const now = performance.now();
  const requests = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  return {
    url: location.href,
    readyState: document.readyState,
    visibility: document.visibilityState,
    state: section?.dataset.state ?? 'missing',
    said: (section?.querySelector('output')?.textContent ?? '').trim().slice(0, 300),
    trip: sessionStorage.getItem(tripKey),
    lastRequests: requests
      .slice(-4)
      .map(
        (entry) =>
          `${entry.name} (${entry.nextHopProtocol || '?'}, ended ${Math.round(now - entry.responseEnd)} ms ago)`,
      ),
  };
}

/**
 * An experiment's missing verdict as one error, with where it stood as reading finds it within 5 s
 * (reading: the driver running whereaboutsScript), or why that could not be read.
 */
export async function noVerdict(
  id: string,
  timeout: number,
  reading: Promise<Whereabouts>,
  cause: unknown,
): Promise<Error> {
  const stood = await withTimeout(reading, 5_000, 'reading the page').then(
    (whereabouts) => `where it stood: ${JSON.stringify(whereabouts, null, 2)}`,
    (failed: Error) => `where it stood could not be read: ${failed.message}`,
  );
  return new Error(`${id} had no verdict within ${timeout} ms; ${stood}`, { cause });
}
