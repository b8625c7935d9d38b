/**
 * The pages that hold experiments, each with a spec that gives every experiment its own test
 * (support/per-experiment.ts checks that one page's experiments and tests match; isolation.spec.ts
 * asserts every experiment at each of the isolation page's addresses).
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
  '/proxy.html',
];
/** Every page: the index, the nine demonstrations, the playground, the Explain page and the engines page. */
export const PAGES = ['/', ...PAGES_WITH_EXPERIMENTS, '/playground.html', '/explain.html', '/engines.html'];
