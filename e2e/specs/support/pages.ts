/**
 * The pages that hold experiments, each with a spec that gives every experiment its own test
 * through experimentTests (support/per-experiment.ts checks that one page's experiments and
 * tests match; docs/test/testing.test.ts that each of these pages has such a spec).
 */
export const PAGES_WITH_EXPERIMENTS = [
  '/reads.html',
  '/bodies.html',
  '/forms.html',
  '/beacons.html',
  '/events.html',
  '/outcomes.html',
  '/isolation.html',
  '/local-network.html',
  '/mcp.html',
  '/sign-in.html',
  '/proxy.html',
];
/** Every page: the index, the eleven demonstrations, the playground, the Explain page and the engines page. */
export const PAGES = ['/', ...PAGES_WITH_EXPERIMENTS, '/playground.html', '/explain.html', '/engines.html'];
/** The pages that send no request of their own: no waterfall and no "What the server saw" (src/page-table.ts). */
export const PAGES_WITHOUT_REQUESTS = ['/', '/explain.html'];
