// Reads evidence off the page's main thread: a HAR of tens of megabytes parses here while the
// page stays responsive and shows how far it got. Receives { text, origin }; posts
// { progress: [done, total] } while explaining a HAR's exchanges, then { result } or { error }.
// The result holds what the page shows (every exchange that failed, the first readable ones) and
// counts, not thousands of explanations to copy back. Nothing here talks to the network.
import { EvidenceError, looksLikeHar, readEvidence } from '@origin-lab/cors-rules/explain';

/** How often (in exchanges) the worker says how far it got. */
const PROGRESS_EVERY = 25;
/** Exchanges sent back to be shown, at most: those that failed, and those the page could read. */
const FAILED_SHOWN = 200;
const READABLE_SHOWN = 100;

self.addEventListener('message', (event: MessageEvent<{ text: string; origin?: string }>) => {
  try {
    const { text, origin } = event.data;
    if (looksLikeHar(text)) postMessage({ progress: [0, 0], phase: 'Reading the HAR' });
    // The command's reading, step for step (kept answers, order, URLs' secrets hidden).
    const { kind, explanations, unknownLines } = readEvidence(text, {
      ...(origin && { origin }),
      onProgress: (done, total) => {
        if (done % PROGRESS_EVERY === 0) postMessage({ progress: [done, total] });
      },
    });
    const readable = explanations.filter((e) => e.verdict === 'readable');
    const failed = explanations.filter((e) => e.verdict !== 'readable');
    const counts: Record<string, number> = {};
    for (const e of explanations) counts[e.verdict] = (counts[e.verdict] ?? 0) + 1;
    postMessage({
      result: {
        kind,
        shown: [...failed.slice(0, FAILED_SHOWN), ...readable.slice(0, READABLE_SHOWN)],
        failedHidden: Math.max(0, failed.length - FAILED_SHOWN),
        readableHidden: Math.max(0, readable.length - READABLE_SHOWN),
        counts,
        unknownLines,
      },
    });
  } catch (err) {
    postMessage({ error: err instanceof EvidenceError ? err.message : `could not read it: ${(err as Error).message}` });
  }
});
