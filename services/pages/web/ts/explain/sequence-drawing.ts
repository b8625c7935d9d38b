import type { SequenceStep } from '@origin-lab/cors-rules/explain';

/**
 * One explained exchange as a sequence drawing: three lifelines (the page, the browser, the
 * server), an arrow per message, the browser's checks as boxes on its line, the step that failed
 * in red with a cross, steps the evidence does not show dashed. Scales to the column's width; its
 * text alternative lists the steps.
 */

const SVG = 'http://www.w3.org/2000/svg';
const COLUMNS = { page: 60, browser: 240, server: 420 } as const;
const WIDTH = 480;
const ROW = 34;
const TOP = 34;

function el(name: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

export function sequenceDrawing(steps: readonly SequenceStep[]): SVGElement {
  const height = TOP + steps.length * ROW + 12;
  const describe = steps
    .map(
      (step, index) =>
        `${index + 1}. ${step.from === step.to ? `the ${step.from}: ${step.label}` : `${step.from} to ${step.to}: ${step.label}`}${step.ok ? '' : ' (failed here)'}${step.inferred ? ' (by the rules; not in the evidence)' : ''}`,
    )
    .join('; ');
  const svg = el('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`,
    class: 'sequence',
    role: 'img',
    'aria-label': `The exchange, step by step: ${describe}`,
  });
  for (const [name, x] of Object.entries(COLUMNS)) {
    svg.append(el('text', { x, y: 18, 'text-anchor': 'middle', class: 'sequence-party' }, name));
    svg.append(el('line', { x1: x, y1: 24, x2: x, y2: height - 6, class: 'sequence-life' }));
  }
  steps.forEach((step, index) => {
    const y = TOP + index * ROW + ROW / 2;
    const tone = step.ok ? 'sequence-ok' : 'sequence-failed';
    const label = `${step.ok ? '' : '✘ '}${step.label}`;
    if (step.from === step.to) {
      const x = COLUMNS[step.from];
      svg.append(el('rect', { x: x - 110, y: y - 12, width: 220, height: 22, rx: 4, class: `sequence-check ${tone}` }));
      svg.append(el('text', { x, y: y + 4, 'text-anchor': 'middle', class: tone }, label));
      return;
    }
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
    svg.append(el('text', { x: (x1 + x2) / 2, y: y - 6, 'text-anchor': 'middle', class: tone }, label));
  });
  return svg;
}
