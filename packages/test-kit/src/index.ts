export * from './raw-http.js';
export * from './poll.js';
export * from './process.js';
