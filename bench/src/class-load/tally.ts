import { percentile } from '../lib/stats.js';

/** Every answer of a class run: how long each took, and which were not what the spec says. */
export class Tally {
  readonly latencies: number[] = [];
  answers = 0;
  wrong = 0;
  /** The first few wrong answers, to say what went wrong. */
  readonly examples: string[] = [];

  /** Counts one answer: right when problem is null; its latency is kept when given. */
  record(what: string, problem: string | null, ms?: number): void {
    this.answers++;
    if (ms !== undefined) this.latencies.push(ms);
    if (problem !== null) {
      this.wrong++;
      if (this.examples.length < 8) this.examples.push(`${what}: ${problem}`);
    }
  }

  /** p50 and p99 of the latencies, in ms. */
  percentiles(): { p50: number; p99: number } {
    return { p50: percentile(this.latencies, 50), p99: percentile(this.latencies, 99) };
  }
}
