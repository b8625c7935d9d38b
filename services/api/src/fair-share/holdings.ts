import type { Awaitable } from '../shared-state/awaitable.js';

/** The kinds of thing a visitor holds: every request in flight, and the long ones among them. */
export type HoldKind = 'inFlight' | 'streams' | 'slow';

/** What one visitor holds now. */
export type Held = Record<HoldKind, number>;

export const NOTHING_HELD: Held = { inFlight: 0, streams: 0, slow: 0 };

/**
 * The count of what each visitor holds: in one process's memory (MemoryHoldings) or in Redis,
 * where a visitor's share is counted across every replica.
 */
export interface HoldingStore {
  /**
   * Takes one of each kind for the visitor, unless one of them is at its limit (0: no limit):
   * then nothing is taken and that kind is returned. Null means taken.
   */
  take(token: string, kinds: readonly HoldKind[], limits: Held): Awaitable<HoldKind | null>;
  /** Gives back what take() took. */
  release(token: string, kinds: readonly HoldKind[]): void;
  holding(token: string): Awaitable<Held>;
}

/** Counts in this process. An entry lives only while its visitor holds something. */
export class MemoryHoldings implements HoldingStore {
  private readonly heldBy = new Map<string, Held>();

  take(token: string, kinds: readonly HoldKind[], limits: Held): HoldKind | null {
    const held = this.heldBy.get(token) ?? { ...NOTHING_HELD };
    const over = kinds.find((kind) => limits[kind] > 0 && held[kind] >= limits[kind]);
    if (over) return over;
    for (const kind of kinds) held[kind] += 1;
    this.heldBy.set(token, held);
    return null;
  }

  release(token: string, kinds: readonly HoldKind[]): void {
    const held = this.heldBy.get(token);
    if (!held) return;
    // Never below zero, as in Redis: a count below zero would let the visitor take one more.
    for (const kind of kinds) held[kind] = Math.max(0, held[kind] - 1);
    if (held.inFlight <= 0) this.heldBy.delete(token);
  }

  holding(token: string): Held {
    return { ...NOTHING_HELD, ...this.heldBy.get(token) };
  }
}
