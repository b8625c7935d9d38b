/** One printed figure: a value, optionally beside the in-run baseline it is compared with, and a target. */
export interface Figure {
  bench: string;
  name: string;
  value: number;
  unit: string;
  baseline?: { label: string; value: number };
  /** value / baseline, or a ratio computed from paired runs (the median of per-run ratios). */
  ratio?: number;
  /** The lowest and highest of the per-run ratios behind ratio. */
  range?: [number, number];
  /** The goal in words, e.g. ">= 0.8x bare" or "< 50 ms". */
  target?: string;
  met?: boolean;
  note?: string;
}

export function formatNumber(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return unit === '' ? text : `${text} ${unit}`;
}

/** A plain-text table, one line per figure, for the terminal (and a Markdown variant for docs). */
export function renderTable(figures: readonly Figure[], markdown = false): string {
  const header = ['benchmark', 'figure', 'value', 'baseline (same run)', 'ratio (runs from-to)', 'target', 'met'];
  const rows = figures.map((figure) => [
    figure.bench,
    figure.name,
    formatNumber(figure.value, figure.unit),
    figure.baseline ? `${formatNumber(figure.baseline.value, figure.unit)} ${figure.baseline.label}` : '',
    figure.ratio === undefined ? '' : `${formatNumber(figure.ratio, '')}x${rangeText(figure.range)}`,
    figure.target ?? '',
    figure.met === undefined ? '' : figure.met ? 'yes' : 'NO',
  ]);
  if (markdown) {
    const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
    return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
  }
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function renderNotes(figures: readonly Figure[]): string {
  return figures
    .filter((figure) => figure.note)
    .map((figure) => `- ${figure.bench} / ${figure.name}: ${figure.note}`)
    .join('\n');
}

function rangeText(range: Figure['range']): string {
  return range ? ` (${formatNumber(range[0], '')}-${formatNumber(range[1], '')})` : '';
}
