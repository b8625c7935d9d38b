export * from './serve.js';
export * from './env.js';
export * from './log.js';
