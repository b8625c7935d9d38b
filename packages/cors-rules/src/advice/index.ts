// What `check` and `explain` advise: the fix per framework (fixes.ts) and the playground case
// that shows a problem happen (playground-case.ts). A second entry of the package, kept out of
// the index so that the pages, which load the index, do not carry it.

export * from './fixes.js';
export * from './playground-case.js';
export * from './playground-address.js';
export * from './fixed-case.js';
