/**
 * A drawn timeline: one bar per request on a shared time axis, the page's own requests and the
 * server's entries on alternate rows, a line joining each page request to what the server saw of
 * it (its preflight and itself). SVG drawn as wide as its box, its labels beside the bars or, on a
 * narrow screen, above them; the table beside it keeps every detail for screen readers and copying.
 */

export type Tone = 'ok' | 'refused' | 'failed' | 'pending' | 'unseen';

export interface TimelineBar {
  id: string;
  side: 'page' | 'server';
  label: string;
  /** Milliseconds on one clock for every bar (epoch time). */
  startMs: number;
  /** Null while the request is in flight. */
  endMs: number | null;
  tone: Tone;
  /** The bar this one belongs to: a server entry to the page request that caused it. */
  joinedTo?: string;
}

const SVG = 'http://www.w3.org/2000/svg';
/** One bar's row, and the room its label takes above it when stacked. */
const ROW = 24;
/** The labels' column beside the bars, as a share of the width. */
const LABEL_SHARE = 0.38;
/** Narrower than this (CSS pixels), each label goes above its bar, across the whole width. */
const STACK_BELOW = 600;
/** About how wide a label's character is: 14 px system-ui (site.css), measured in Chromium at 0.57 em. */
const CHARACTER_PX = 8.2;
/** The width drawn when the box has none yet (not laid out): it is drawn again once it has one. */
const FALLBACK_WIDTH = 1000;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/**
 * Where things go at a width in CSS pixels. The drawing is as wide as its box, one unit a pixel,
 * so its text keeps its size on any screen: beside the bars on a wide one, above them on a
 * narrow one (a phone), where the bars get the whole width.
 */
export function timelineLayout(width: number): {
  stacked: boolean;
  /** Where the time axis starts, and the height of one bar's row. */
  left: number;
  row: number;
  /** The characters a label keeps (a server entry's label is indented). */
  labelCharacters: number;
} {
  const stacked = width < STACK_BELOW;
  const labelRoom = stacked ? width - 8 : width * LABEL_SHARE - 8;
  return {
    stacked,
    left: stacked ? 4 : width * LABEL_SHARE,
    row: stacked ? 2 * ROW - 6 : ROW,
    labelCharacters: Math.max(Math.floor((labelRoom - 16) / CHARACTER_PX), 8),
  };
}

/** What each box was last drawn with, to draw it again when its width changes. */
const drawn = new WeakMap<HTMLElement, { bars: readonly TimelineBar[]; nowMs: number; width: number }>();
const resized = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const box = entry.target as HTMLElement;
    const last = drawn.get(box);
    if (last && box.clientWidth !== last.width) drawTimeline(box, last.bars, last.nowMs);
  }
});

/** Draws the bars into container (replacing what was there), in the order given, as wide as the container. */
export function drawTimeline(container: HTMLElement, bars: readonly TimelineBar[], nowMs: number): void {
  if (!drawn.has(container)) resized.observe(container);
  drawn.set(container, { bars, nowMs, width: container.clientWidth });
  container.replaceChildren();
  if (bars.length === 0) return;
  const width = container.clientWidth || FALLBACK_WIDTH;
  const layout = timelineLayout(width);
  const start = Math.min(...bars.map((bar) => bar.startMs));
  const end = Math.max(nowMs, ...bars.map((bar) => bar.endMs ?? nowMs));
  const span = Math.max(end - start, 1);
  const x = (ms: number) => layout.left + ((ms - start) / span) * (width - layout.left - 8);
  // The bar's own row: under its label when stacked, beside it otherwise.
  const barTop = (row: number) => row * layout.row + (layout.stacked ? ROW - 6 : 0) + 4;
  const height = bars.length * layout.row + 24;

  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'timeline', role: 'img' });
  const seen = bars.filter((bar) => bar.side === 'server').length;
  root.setAttribute(
    'aria-label',
    `Timeline of ${bars.length - seen} page requests and ${seen} server entries over ${Math.round(span)} ms`,
  );

  const rowOf = new Map<string, number>();
  bars.forEach((bar, row) => {
    rowOf.set(bar.id, row);
    const text = svg('text', {
      x: bar.side === 'server' ? 16 : 4,
      y: row * layout.row + 18,
      class: `timeline-label ${bar.side}`,
    });
    const characters = layout.labelCharacters - (bar.side === 'server' ? 2 : 0);
    text.textContent = bar.label.length > characters ? `${bar.label.slice(0, characters - 1)}…` : bar.label;
    const barEnd = bar.endMs ?? nowMs;
    const rect = svg('rect', {
      x: x(bar.startMs),
      y: barTop(row) + 3,
      width: Math.max(x(barEnd) - x(bar.startMs), 3),
      height: ROW - 8,
      rx: 3,
      class: `timeline-bar ${bar.side} ${bar.tone}`,
    });
    const title = svg('title', {});
    title.textContent = `${bar.side === 'page' ? 'Page' : 'Server'}: ${bar.label}, ${Math.round(barEnd - bar.startMs)} ms (${bar.tone})`;
    rect.append(title);
    root.append(text, rect);
  });

  // Joins: from each server entry back to the page request it belongs to.
  for (const bar of bars) {
    if (!bar.joinedTo) continue;
    const from = rowOf.get(bar.joinedTo);
    const to = rowOf.get(bar.id);
    if (from === undefined || to === undefined) continue;
    root.append(
      svg('line', {
        x1: x(bar.startMs),
        y1: barTop(from) + ROW / 2,
        x2: x(bar.startMs),
        y2: barTop(to) + ROW / 2,
        class: 'timeline-join',
      }),
    );
  }

  const axis = svg('text', { x: width - 8, y: height - 6, class: 'timeline-axis', 'text-anchor': 'end' });
  axis.textContent = `${Math.round(span)} ms`;
  root.append(axis);
  container.append(root);
}
