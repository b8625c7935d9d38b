import type { EngineOutcome } from '@origin-lab/contract';
import type { EnginePage } from '../../engines/engine.js';

/** What the page saw of one exchange, or predicted of it. */
export interface Seen {
  preflight: boolean;
  sent: boolean;
  readable: boolean;
  extraVisible: boolean | null;
}

/** What the playground records of one run (#agreement's data-observed). */
export interface Outcome {
  predicted: Seen & { failureRule: string | null };
  observed: Seen;
  status: number | null;
  rule: string;
  outcome: EngineOutcome;
}

/** Presses "Predict and send" (a real click) and returns what the page recorded; in any engine. */
export async function sendCase(page: EnginePage): Promise<{ state: string; outcome: Outcome }> {
  await page.evaluate(() => {
    document.getElementById('agreement')!.dataset.state = 'idle';
  });
  await page.click('#send');
  await page.waitFor(
    () => document.getElementById('agreement')?.dataset.state !== 'idle',
    15_000,
    "the playground's verdict (#agreement leaving idle)",
  );
  const { state, observed } = await page.evaluate(() => {
    const agreement = document.getElementById('agreement');
    return { state: agreement?.dataset.state ?? 'missing', observed: agreement?.dataset.observed ?? '{}' };
  });
  return { state, outcome: JSON.parse(observed) as Outcome };
}
