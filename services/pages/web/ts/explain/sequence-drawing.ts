import type { SequenceStep } from '@origin-lab/cors-rules/explain';

/**
 * One explained exchange as a sequence drawing: three lifelines (the page, the browser, the
 * server), an arrow per message, the browser's checks as boxes on its line, the step that failed
 * in red with a cross, steps the evidence does not show dashed. Scales to the column's width; its
 * text alternative lists the steps.
 *
 * Drawn as narrow as a phone's column (320 units for about as many pixels), so the text stays at
 * its size there and grows on a wider screen (explain.css caps the figure's width); a
 * label too long for the room between two lifelines goes on two lines.
 */

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 320;
const COLUMNS = { page: 34, browser: 160, server: 286 } as const;
/** A check's box on the browser's line. */
const BOX_WIDTH = 236;
/** One line of text (the drawing's font is 12 units: explain.css), and the room an arrow takes below its label. */
const LINE = 14;
const ARROW = 14;
const TOP = 30;
/**
 * The characters an arrow's label keeps on one line: the 126 units between two lifelines at
 * about 6.2 units a character of 12-unit system-ui, 7 in bold (a failed step's; measured in
 * Chromium: 0.51 em and 0.58 em).
 */
const LINE_CHARACTERS = { ok: 19, failed: 17 } as const;

function el(name: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A label as lines: whole, or split at the space nearest its middle when it is longer than one line holds. */
function labelLines(label: string, characters: number): string[] {
  if (label.length <= characters) return [label];
  const spaces = [...label.matchAll(/ /g)].map((match) => match.index);
  if (spaces.length === 0) return [label];
  const middle = label.length / 2;
  const split = spaces.reduce((best, at) => (Math.abs(at - middle) < Math.abs(best - middle) ? at : best));
  return [label.slice(0, split), label.slice(split + 1)];
}

/** A text of one or more lines, its last line's baseline at y. */
function text(x: number, y: number, lines: string[], tone: string): SVGElement {
  const node = el('text', { x, y: y - (lines.length - 1) * LINE, 'text-anchor': 'middle', class: tone });
  lines.forEach((line, index) => node.append(el('tspan', index === 0 ? { x } : { x, dy: LINE }, line)));
  return node;
}

function describe(steps: readonly SequenceStep[]): string {
  return steps
    .map(
      (step, index) =>
        `${index + 1}. ${step.from === step.to ? `the ${step.from}: ${step.label}` : `${step.from} to ${step.to}: ${step.label}`}${step.ok ? '' : ' (failed here)'}${step.inferred ? ' (by the rules; not in the evidence)' : ''}`,
    )
    .join('; ');
}

/** One step drawn at y (the top of its row); returns the row's height. */
function drawStep(svg: SVGElement, step: SequenceStep, top: number): number {
  const tone = step.ok ? 'sequence-ok' : 'sequence-failed';
  const label = `${step.ok ? '' : '✘ '}${step.label}`;
  if (step.from === step.to) {
    const x = COLUMNS[step.from];
    const y = top + LINE;
    svg.append(
      el('rect', {
        x: x - BOX_WIDTH / 2,
        y: y - 12,
        width: BOX_WIDTH,
        height: 22,
        rx: 4,
        class: `sequence-check ${tone}`,
      }),
    );
    svg.append(text(x, y + 4, [label], tone));
    return 2 * LINE + 4;
  }
  const lines = labelLines(label, LINE_CHARACTERS[step.ok ? 'ok' : 'failed']);
  const y = top + lines.length * LINE + ARROW / 2;
  const x1 = COLUMNS[step.from];
  const x2 = COLUMNS[step.to];
  const towards = x2 > x1 ? -1 : 1;
  svg.append(
    el('line', {
      x1,
      y1: y,
      x2: x2 + towards * 4,
      y2: y,
      class: `sequence-arrow ${tone}${step.inferred ? ' sequence-inferred' : ''}`,
    }),
  );
  svg.append(el('path', { d: `M${x2} ${y} l${towards * 8} -5 v10 z`, class: `sequence-head ${tone}` }));
  svg.append(text((x1 + x2) / 2, y - 5, lines, tone));
  return lines.length * LINE + ARROW;
}

export function sequenceDrawing(steps: readonly SequenceStep[]): SVGElement {
  const svg = el('svg', {
    class: 'sequence',
    role: 'img',
    'aria-label': `The exchange, step by step: ${describe(steps)}`,
  });
  let top = TOP;
  for (const step of steps) top += drawStep(svg, step, top);
  const height = top + 8;
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${height}`);
  for (const [name, x] of Object.entries(COLUMNS)) {
    svg.prepend(el('line', { x1: x, y1: 22, x2: x, y2: height - 4, class: 'sequence-life' }));
    svg.prepend(el('text', { x, y: 16, 'text-anchor': 'middle', class: 'sequence-party' }, name));
  }
  return svg;
}
