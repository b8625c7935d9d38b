export * from './serve.js';
export * from './env.js';
export * from './log.js';
export * from './child-process.js';
export * from './secret.js';
export * from './request-log.js';
export * from './response-done.js';
export * from './counted-response.js';
