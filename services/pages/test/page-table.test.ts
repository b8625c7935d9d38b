import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PAGES, pagePath } from '../src/page-table.js';
import { renderPage } from '../src/page-shell.js';

const stems = (folder: string, ending: string) =>
  readdirSync(fileURLToPath(new URL(folder, import.meta.url)))
    .filter((file) => file.endsWith(ending))
    .map((file) => file.slice(0, -ending.length))
    .sort();

describe('the table of pages', () => {
  it('has one row per body fragment and per page module, and no others', () => {
    const names = PAGES.map((page) => page.name).sort();
    expect(stems('../web/bodies/', '.html')).toEqual(names);
    expect(stems('../web/ts/pages/', '.ts')).toEqual(names);
  });

  it('starts with the index, served at /', () => {
    expect(PAGES[0]?.name).toBe('index');
    expect(pagePath(PAGES[0]!)).toBe('/');
    expect(pagePath({ name: 'reads', title: 'x', navLabel: 'x' })).toBe('/reads.html');
  });
});

describe('a page rendered from the table', () => {
  const forms = PAGES.find((page) => page.name === 'forms')!;
  const html = renderPage(PAGES, forms, '<p class="lead">own body</p>\n');

  it('has its title, heading, own body, module script and the shared frame', () => {
    expect(html).toContain('<title>Forms and JSON · Origin Lab</title>');
    expect(html).toContain('<h1>Forms and JSON</h1>\n<p class="lead">own body</p>\n<div id="experiments"></div>');
    expect(html).toContain(
      '<script src="/site-config.js"></script>\n<script type="module" src="/js/pages/forms.js"></script>',
    );
    // The contract's values reach the browser through an import map, before any module script.
    expect(html).toContain(
      '<script type="importmap">{"imports":{"@origin-lab/contract":"/js/contract/index.js","@origin-lab/contract/engine-records":"/js/contract/engine-records.js","@origin-lab/contract/fetch-metadata":"/js/contract/fetch-metadata.js","@origin-lab/contract/site":"/js/contract/site.js","@origin-lab/contract/lab-mcp":"/js/contract/lab-mcp.js","@origin-lab/contract/lab-idp":"/js/contract/lab-idp.js","@origin-lab/cors-rules":"/js/cors-rules/index.js","@origin-lab/cors-rules/advice":"/js/cors-rules/advice/index.js","@origin-lab/cors-rules/playground-address":"/js/cors-rules/advice/playground-address.js","@origin-lab/cors-rules/engine-facts":"/js/cors-rules/rules/engine-facts.js","@origin-lab/cors-rules/safelist":"/js/cors-rules/rules/safelist.js","@origin-lab/cors-rules/refusal":"/js/cors-rules/rules/refusal.js","@origin-lab/cors-rules/explain":"/js/cors-rules/explain/index.js"}}</script>\n<script src="/site-config.js">',
    );
    expect(html).toContain('<aside id="waterfall" aria-label="Waterfall"></aside>');
  });

  it('has no waterfall and no server view where the page sends no requests of its own', () => {
    const panels = /id="waterfall"|id="server-view"/g;
    expect(html.match(panels)).toEqual(['id="waterfall"', 'id="server-view"']);
    for (const name of ['index', 'explain']) {
      const page = PAGES.find((entry) => entry.name === name)!;
      expect(renderPage(PAGES, page, '<p>body</p>\n').match(panels), name).toBeNull();
    }
  });

  it('navigates to every page, numbered after the index, marking only itself as current', () => {
    const links = [...html.matchAll(/<li><a href="([^"]+)"( aria-current="page")?>([^<]+)<\/a><\/li>/g)].map((m) => [
      m[1],
      m[3],
      Boolean(m[2]),
    ]);
    expect(links).toEqual(
      PAGES.map((page, i) => [pagePath(page), i === 0 ? page.navLabel : `${i} ${page.navLabel}`, page === forms]),
    );
  });

  it('puts the list of topics where the index asks for it', () => {
    const index = renderPage(PAGES, PAGES[0]!, '<p>before</p>\n<!-- topics -->\n<p>after</p>\n');
    expect(index).toContain('<title>Origin Lab</title>');
    const list = /<p>before<\/p>\n<ol id="topics">\n([\s\S]*?)<\/ol>\n<p>after<\/p>/.exec(index)?.[1] ?? '';
    expect([...list.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual(PAGES.slice(1).map(pagePath));
    expect(list).toContain(
      '<li><a href="/proxy.html">Same-origin proxy</a>: a third party behind /api/upstream/.</li>',
    );
  });
});
