// The CORS rules (src/rules/), one module a concern: the safelists (safelist.ts), what the spec
// predicts of a request against a lab policy (predict.ts), why an exchange is refused
// (refusal.ts), and what each engine was measured to do where the spec lets engines differ
// (engine-facts.ts, also the entry `@origin-lab/cors-rules/engine-facts`). Pure: the api,
// the pages' browser modules (through their import map), `check` and `explain` load the same files.
// This index only re-exports; no module here imports it.

export * from './rules/safelist.js';
export * from './rules/predict.js';
export * from './rules/refusal.js';
export * from './rules/engine-facts.js';
// The advice (the fix per framework, the playground case that shows a problem) is a second entry,
// `@origin-lab/cors-rules/advice` (src/advice/), which only the pages that advise load: it would
// weigh on every page. The third, `@origin-lab/cors-rules/explain` (src/explain/), reads evidence.
