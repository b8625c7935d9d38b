import { builtAt } from '../build-info.js';
import { h } from './dom.js';
import { onTraffic } from './waterfall.js';

export interface Counter {
  set(value: number | string): void;
  add(delta?: number): void;
}

let list: HTMLDListElement | null = null;

/** Page loads of this page in this browser, per origin (localStorage belongs to the origin). */
function countLoad(): number {
  const key = `origin-lab:loads:${location.pathname}`;
  try {
    const loads = Number(localStorage.getItem(key) ?? '0') + 1;
    localStorage.setItem(key, String(loads));
    return loads;
  } catch {
    return 1;
  }
}

/** The instrumentation strip: loads, requests, build time, query string, and the page's own counters. */
export function renderStrip(container: HTMLElement): void {
  list = h('dl', { class: 'strip' });
  container.append(list);
  addCounter('page-loads', 'Page loads').set(countLoad());
  const requests = addCounter('requests', 'Requests (fetch + XHR)');
  requests.set(0);
  onTraffic((entries) => requests.set(entries.length));
  addCounter('built', 'Built').set(builtAt);
  addCounter('query', 'Query string').set(location.search || '(none)');
}

export function addCounter(id: string, label: string): Counter {
  if (!list) throw new Error('renderStrip must run before addCounter');
  const value = h('dd', { id: `strip-${id}` }, '0');
  list.append(h('div', {}, h('dt', {}, label), value));
  let current = 0;
  return {
    set(next) {
      if (typeof next === 'number') current = next;
      value.textContent = String(next);
    },
    add(delta = 1) {
      current += delta;
      value.textContent = String(current);
    },
  };
}
