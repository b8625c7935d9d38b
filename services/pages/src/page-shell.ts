// Renders one page's HTML from the table of pages (page-table.ts) and the page's own body
// fragment (web/bodies/<name>.html). Everything every page shares is written here once: head,
// navigation, heading, the experiments box, and for a page that sends requests the waterfall and
// what the server saw.
import { pagePath, type PageEntry } from './page-table.js';

/**
 * The browser has no bundler: a page module imports the contract's values and the CORS rules by
 * name (`@origin-lab/contract`, `@origin-lab/cors-rules`), and this import map tells the browser
 * where the build put them (scripts/build-web.mjs compiles each package's src to js/<package>/).
 * The only bare specifiers a browser module may use are the keys here; the build refuses any other.
 */
export const IMPORT_MAP = {
  imports: {
    '@origin-lab/contract': '/js/contract/index.js',
    // The engine records' codec alone: the engines page needs nothing else of the contract.
    '@origin-lab/contract/engine-records': '/js/contract/engine-records.js',
    '@origin-lab/contract/fetch-metadata': '/js/contract/fetch-metadata.js',
    // Host names and origins, for the frame every page loads.
    '@origin-lab/contract/site': '/js/contract/site.js',
    '@origin-lab/contract/lab-mcp': '/js/contract/lab-mcp.js',
    '@origin-lab/contract/lab-idp': '/js/contract/lab-idp.js',
    '@origin-lab/cors-rules': '/js/cors-rules/index.js',
    '@origin-lab/cors-rules/advice': '/js/cors-rules/advice/index.js',
    // The playground's address alone: the playground opens without the rest of the advice.
    '@origin-lab/cors-rules/playground-address': '/js/cors-rules/advice/playground-address.js',
    // Two parts on their own, for what every page loads (the index brings the prediction too).
    '@origin-lab/cors-rules/engine-facts': '/js/cors-rules/rules/engine-facts.js',
    // The safelists alone: a page that only asks what needs a preflight loads no prediction.
    '@origin-lab/cors-rules/safelist': '/js/cors-rules/rules/safelist.js',
    '@origin-lab/cors-rules/refusal': '/js/cors-rules/rules/refusal.js',
    '@origin-lab/cors-rules/explain': '/js/cors-rules/explain/index.js',
  },
} as const;

/** The import map as the tag every page's head carries before any module script. */
export const IMPORT_MAP_TAG = `<script type="importmap">${JSON.stringify(IMPORT_MAP)}</script>`;

/** Where the index's body fragment wants the list of topics. */
const TOPICS_SLOT = '<!-- topics -->\n';

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The navigation: every page, numbered after the index, the current one marked for screen readers and CSS. */
function navigation(pages: readonly PageEntry[], current: PageEntry): string {
  const items = pages.map((page, index) => {
    const label = index === 0 ? page.navLabel : `${index} ${page.navLabel}`;
    const currentMark = page === current ? ' aria-current="page"' : '';
    return `<li><a href="${pagePath(page)}"${currentMark}>${escapeHtml(label)}</a></li>`;
  });
  return `<nav aria-label="Pages"><ul>${items.join('')}</ul></nav>`;
}

/** The index's list: a link per topic page and what it shows. */
function topicList(pages: readonly PageEntry[]): string {
  const items = pages.flatMap((page) =>
    page.topic
      ? [`<li><a href="${pagePath(page)}">${escapeHtml(page.title)}</a>: ${escapeHtml(page.topic)}</li>\n`]
      : [],
  );
  return `<ol id="topics">\n${items.join('')}</ol>\n`;
}

/** Where a page that sends requests shows them: its waterfall and what the server saw (page/setup-page.ts fills them). */
const TRAFFIC_PANELS = `<aside id="waterfall" aria-label="Waterfall"></aside>
<section id="server-view" aria-labelledby="server-view-heading"></section>
`;

/**
 * The full HTML of one page. body is the page's own markup, placed under its heading; a
 * "<!-- topics -->" line in it becomes the list of topics.
 */
export function renderPage(pages: readonly PageEntry[], page: PageEntry, body: string): string {
  const documentTitle = page.name === 'index' ? page.title : `${page.title} · Origin Lab`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(documentTitle)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/site.css">
${IMPORT_MAP_TAG}
<script src="/site-config.js"></script>
<script type="module" src="/js/pages/${page.name}.js"></script>
</head>
<body>
<header id="top">${navigation(pages, page)}</header>
<main>
<h1>${escapeHtml(page.title)}</h1>
${body.replace(TOPICS_SLOT, () => topicList(pages))}<div id="experiments"></div>
</main>
${page.sendsRequests === false ? '' : TRAFFIC_PANELS}</body>
</html>
`;
}
