/** The sequence drawing: an exchange as steps between page, browser and server, the failing one marked. */
import type { SequenceStep } from './types.js';

export interface SequenceFacts {
  preflight: boolean | null;
  failedAt: 'preflight' | 'actual' | null;
  method: string | null;
  inferred: boolean;
  preflightStatus?: number;
  status?: number;
}

/** A request the browser sends and the server's answer to it (inferred where no engine showed them). */
function roundTrip(label: string, status: number | undefined, inferred: boolean): SequenceStep[] {
  return [
    { from: 'browser', to: 'server', label, ok: true, inferred },
    { from: 'server', to: 'browser', label: status ? `${status}` : 'answer', ok: true, inferred },
  ];
}

/** The preflight's three steps (sent, answered, checked), and the page's TypeError when it failed. */
function preflightSteps(facts: SequenceFacts): SequenceStep[] {
  const failed = facts.failedAt === 'preflight';
  const steps: SequenceStep[] = [
    ...roundTrip('OPTIONS (preflight)', facts.preflightStatus, facts.inferred),
    { from: 'browser', to: 'browser', label: 'checks the preflight’s answer', ok: !failed },
  ];
  if (failed) steps.push({ from: 'browser', to: 'page', label: 'TypeError (never sent)', ok: false });
  return steps;
}

/** The exchange as steps between page, browser and server, the failing one marked. */
export function sequenceOf(facts: SequenceFacts): SequenceStep[] {
  const method = facts.method ?? 'the request';
  const steps: SequenceStep[] = [{ from: 'page', to: 'browser', label: `fetch: ${method}`, ok: true }];
  if (facts.preflight) {
    steps.push(...preflightSteps(facts));
    if (facts.failedAt === 'preflight') return steps;
  }
  const failed = facts.failedAt === 'actual';
  steps.push(
    ...roundTrip(method, facts.status, facts.inferred),
    { from: 'browser', to: 'browser', label: 'CORS check of the answer', ok: !failed },
    { from: 'browser', to: 'page', label: failed ? 'TypeError (not readable)' : 'the answer', ok: !failed },
  );
  return steps;
}
