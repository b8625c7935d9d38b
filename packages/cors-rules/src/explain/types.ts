/** What an explanation is: the shapes `explain`, the Explain page and their tests read. */
import type { Fix } from '../advice/fixes.js';
import type { FetchStep, RefusalRule } from '../rules/refusal.js';
import type { Engine, MessageRule } from './console-messages.js';

export type Verdict = 'refused' | 'readable' | 'not-cors' | 'unknown';

/** One step of the exchange, for the sequence drawing: an arrow between two parties, or a check in the browser. */
export interface SequenceStep {
  from: 'page' | 'browser' | 'server';
  to: 'page' | 'browser' | 'server';
  label: string;
  /** false marks the step that failed. */
  ok: boolean;
  /** The step is what the rules say happened, not something the evidence shows. */
  inferred?: boolean;
}

export interface Risk {
  kind: 'missing-vary' | 'reflected-with-credentials' | 'readable-error-status' | 'wildcard' | 'fetch-metadata';
  text: string;
}

export interface Explanation {
  source: 'console' | 'har' | 'curl';
  /** The HAR entry's index, the curl exchange's, or the message's. */
  index: number;
  engine: Engine | null;
  url: string | null;
  origin: string | null;
  method: string | null;
  verdict: Verdict;
  /** The rule, or a refusal that is not CORS; null for a read. */
  rule: RefusalRule | Exclude<MessageRule, RefusalRule> | null;
  /** The Fetch standard's step, in plain words. */
  step: FetchStep | null;
  header?: string;
  value?: string;
  /** The explanation, in a few sentences. */
  text: string;
  /** Whether the request reached the server: true, false, or null when the evidence cannot say. */
  reachedServer: boolean | null;
  fix: Fix | null;
  /** The playground's fields for the same refusal (the caller puts them after /playground.html#). */
  playground: Record<string, string> | null;
  /** When the exchange is readable only because the evidence shows no credentials: the rule that refuses it with them. */
  withCredentials?: RefusalRule;
  /**
   * When the evidence fits more than one rule (WebKit's words often do): each rule it fits, with
   * the playground case that shows it. rule is null then, and unknowns say what would tell.
   */
  candidates?: { rule: RefusalRule; title: string; playground: Record<string, string> }[];
  risks: Risk[];
  /** What the conclusions rest on. */
  restsOn: string[];
  /** What the evidence cannot tell, and what to capture to know. */
  unknowns: string[];
  sequence: SequenceStep[];
}
