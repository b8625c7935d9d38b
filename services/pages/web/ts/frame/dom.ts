/** Tiny DOM helpers: build elements without a framework. */
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no element #${id}`);
  return el as T;
}

/** A short, readable rendering of any value, for tables on a projector. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A unique-enough marker to find one request again in the server's journal. */
export function marker(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A wide table in a box that scrolls sideways by itself on a narrow screen, so the page never
 * does. The box takes the keyboard focus (a region named label), so it can be scrolled without a
 * pointer.
 */
export function scrollBox(label: string, table: HTMLTableElement): HTMLDivElement {
  return h('div', { class: 'table-scroll', role: 'region', 'aria-label': label, tabindex: '0' }, table);
}

/**
 * Readies a table to be stacked on a narrow screen (site.css, `table.stacks`): each data cell gets
 * its column's name (data-column), which the stacked cell shows before its text, and every part
 * its table role, which an engine may drop once CSS changes the table's display (WebKit has), so
 * assistive technology still reads a table. Call it again after adding rows.
 */
export function stackable(table: HTMLTableElement): HTMLTableElement {
  const names = Array.from(table.tHead?.rows[0]?.cells ?? [], (cell) => cell.textContent?.trim() ?? '');
  table.classList.add('stacks');
  table.setAttribute('role', 'table');
  for (const group of [table.tHead, ...Array.from(table.tBodies)]) group?.setAttribute('role', 'rowgroup');
  for (const row of Array.from(table.rows)) {
    row.setAttribute('role', 'row');
    for (const cell of Array.from(row.cells)) {
      if (cell.tagName === 'TD') {
        cell.setAttribute('role', 'cell');
        cell.dataset.column = names[cell.cellIndex] ?? '';
      } else cell.setAttribute('role', cell.getAttribute('scope') === 'col' ? 'columnheader' : 'rowheader');
    }
  }
  return table;
}
