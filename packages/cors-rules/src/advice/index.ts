// What `check`, `explain` and the pages' Why advise: the fix per framework (fixes.ts, its prose
// fix-texts.ts), the playground case that shows a problem happen (playground-case.ts), the
// playground's address (playground-address.ts, also the entry
// `@origin-lab/cors-rules/playground-address`) and the smallest change that fixes a case
// (fixed-case.ts). A second entry of the package, kept out of the index so that the pages,
// which load the index, do not carry it.

export * from './fixes.js';
export * from './playground-case.js';
export * from './playground-address.js';
export * from './fixed-case.js';
