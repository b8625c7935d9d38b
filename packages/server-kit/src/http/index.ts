export * from './http-error.js';
export * from './errors-as-json.js';
export * from './unrouted.js';
export * from './query-int.js';
export * from './one-of.js';
