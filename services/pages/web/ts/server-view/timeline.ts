/**
 * A drawn timeline: one bar per request on a shared time axis, the page's own requests and the
 * server's entries on alternate rows, a line joining each page request to what the server saw of
 * it (its preflight and itself). SVG, so it scales to any width; the table beside it keeps every
 * detail for screen readers and copying.
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
const ROW = 22;
const LABEL_WIDTH = 0.38;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** Draws the bars into container (replacing what was there), in the order given. */
export function drawTimeline(container: HTMLElement, bars: readonly TimelineBar[], nowMs: number): void {
  container.replaceChildren();
  if (bars.length === 0) return;
  const start = Math.min(...bars.map((bar) => bar.startMs));
  const end = Math.max(nowMs, ...bars.map((bar) => bar.endMs ?? nowMs));
  const span = Math.max(end - start, 1);
  const width = 1000;
  const left = width * LABEL_WIDTH;
  const x = (ms: number) => left + ((ms - start) / span) * (width - left - 8);
  const height = bars.length * ROW + 24;

  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'timeline', role: 'img' });
  const seen = bars.filter((bar) => bar.side === 'server').length;
  root.setAttribute(
    'aria-label',
    `Timeline of ${bars.length - seen} page requests and ${seen} server entries over ${Math.round(span)} ms`,
  );

  const rowOf = new Map<string, number>();
  bars.forEach((bar, row) => {
    rowOf.set(bar.id, row);
    const y = row * ROW + 4;
    const text = svg('text', { x: bar.side === 'server' ? 16 : 4, y: y + 14, class: `timeline-label ${bar.side}` });
    text.textContent = bar.label.length > 48 ? `${bar.label.slice(0, 47)}…` : bar.label;
    const barEnd = bar.endMs ?? nowMs;
    const rect = svg('rect', {
      x: x(bar.startMs),
      y: y + 3,
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
        y1: from * ROW + ROW / 2 + 4,
        x2: x(bar.startMs),
        y2: to * ROW + ROW / 2 + 4,
        class: 'timeline-join',
      }),
    );
  }

  const axis = svg('text', { x: width - 8, y: height - 6, class: 'timeline-axis', 'text-anchor': 'end' });
  axis.textContent = `${Math.round(span)} ms`;
  root.append(axis);
  container.append(root);
}
